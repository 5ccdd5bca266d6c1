/**
 * Raw decorator arguments, exactly as the user wrote them. Decorators store
 * these; `compileEntity()` validates and turns them into an `EntitySchema`.
 */

import type { LintRuleId } from './lint-rule.js';
import type { StandardValidator } from './standard-schema.js';

/**
 * Any class constructor.
 * @example
 * ```ts
 * const c: Constructor<Reading> = Reading;
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Constructor<T = unknown> = new (...args: any[]) => T;

/**
 * Options of `@Entity`.
 * @example
 * ```ts
 * @Entity({ table: 'readings', separator: '#' })
 * ```
 */
export interface EntityOptions {
  /** Bigtable table id. */
  table: string;
  /** Separator between key components; one ASCII punctuation character other than `%`. Default `#`. */
  separator?: string;
  /** Justified exceptions to `lintEntity()` rules (docs/key-design-tools.md). */
  lint?: EntityLintOptions;
  /**
   * How the row key is laid out. `text` (default): components as text joined
   * by `separator`. `ordered-code`: Bigtable's structured row-key encoding
   * (`OrderedCodeBytes`), which `sync` declares as the table's row key schema
   * so that GoogleSQL reads each key part by name (docs/structured-row-keys.md).
   *
   * @example
   * ```ts
   * @Entity({ table: 'readings', keyFormat: 'ordered-code' })
   * class Reading {
   *   @KeyPart(0, { type: 'string' }) sensorId!: string;
   *   @KeyPart(1, { type: 'timestamp', descending: true }) at!: Date;
   * }
   * ```
   */
  keyFormat?: KeyFormat;
}

/**
 * `lintEntity()` exceptions of one entity: rule id → the reason, for the whole
 * entity, or → `{ property or family: reason }` for only those. A reason must
 * be non-empty text; `compileEntity()` rejects unknown rules and names.
 *
 * @example
 * ```ts
 * @Entity({ table: 'activity', lint: { ignore: { 'unbounded-string-key': { site: 'a fixed list of site names' } } } })
 * ```
 * @inline
 */
export interface EntityLintOptions {
  /** Rule id → reason, or → `{ property or family: reason }`. */
  ignore?: Partial<Record<LintRuleId, string | Readonly<Record<string, string>>>>;
}

/**
 * Row-key layouts: `text` (components as text between separators) or
 * `ordered-code` (Bigtable's `OrderedCodeBytes` struct encoding).
 * @example
 * ```ts
 * const format: KeyFormat = 'ordered-code';
 * ```
 * @inline
 */
export type KeyFormat = 'text' | 'ordered-code';

/**
 * Row-key component encodings (docs/row-key-design.md): `bytes` is a
 * `Uint8Array`/`Buffer` (lowercase hex in text keys), `float` a finite number
 * (order-preserving double bits; `-0` is stored as `0`), `boolean` `0`/`1`.
 * @example
 * ```ts
 * @KeyPart(1, { type: 'timestamp', format: 'epoch-ms', descending: true })
 * ```
 * @inline
 */
export type KeyPartType = 'string' | 'uint' | 'int' | 'bigint' | 'timestamp' | 'bytes' | 'float' | 'boolean';

/**
 * Text encodings of a `timestamp` key part.
 * @example
 * ```ts
 * const format: TimestampKeyFormat = 'iso'; // a key text like 2023-05-01T12:00:00.000Z
 * ```
 * @inline
 */
export type TimestampKeyFormat = 'iso' | 'epoch-s' | 'epoch-ms';

/**
 * Options of a property `@KeyPart`.
 * @example
 * ```ts
 * @KeyPart(0, { type: 'uint', width: 8 })
 * ```
 */
export interface KeyPartOptions {
  /**
   * Encoding of the component (docs/row-key-design.md): `bytes` is a
   * `Uint8Array`/`Buffer` (lowercase hex in text keys), `float` a finite number
   * (order-preserving double bits; `-0` is stored as `0`), `boolean` `0`/`1`.
   */
  type: KeyPartType;
  /** Digits of zero-padded numeric and epoch encodings. */
  width?: number;
  /**
   * Newest/largest first (`10^width − 1 − value`). In text keys: numbers, floats, booleans and epoch
   * timestamps; in `ordered-code` keys: any type.
   */
  descending?: boolean;
  /** Text form of a `timestamp` part: `iso` (e.g. `2023-05-01T12:00:00.000Z`, the default), `epoch-s` or `epoch-ms`. */
  format?: TimestampKeyFormat;
  /**
   * `string` and `bytes` parts only: the longest value, in UTF-16 code units (`value.length`)
   * for strings and in bytes for `bytes`; a longer value throws `KeyEncodingError`. Each string
   * unit encodes to at most 3 bytes and each byte to 2 hex digits, which is how `lintEntity()`
   * bounds the row key against Bigtable's 4 KiB.
   */
  maxLength?: number;
  /**
   * `string` parts only: write the value's UTF-8 bytes as they are, without
   * the `%`-escaping of `%` and the separator, so that a hand-written table
   * (ids holding the separator, empty parts, raw `%`) is read and written byte
   * for byte. Decoding must stay unambiguous, so a verbatim part is either
   * the last key part (it takes the rest of the key, separators included), or
   * has a `width` (exactly that many UTF-16 code units, checked on encode),
   * or a `charset` that excludes the separator. Text keys only.
   *
   * @example
   * ```ts
   * // seed 003's `user_id-site-timestamp`, where user ids are UUIDs holding `-`
   * @KeyPart(0, { type: 'string', verbatim: true, width: 36 }) userId!: string;
   * @KeyPart(1, { type: 'string', verbatim: true, charset: 'word' }) site!: string;
   * @KeyPart(2, { type: 'string', verbatim: true }) rest!: string;
   * ```
   */
  verbatim?: boolean;
  /**
   * Characters a `verbatim` string part may hold, checked on encode:
   * `alnum` (`A-Z a-z 0-9`), `word` (`alnum` and `_`) or `hex` (`0-9 a-f A-F`).
   * It must exclude the key separator.
   */
  charset?: VerbatimCharset;
  /**
   * A Standard Schema validator (zod, valibot, ArkType, ...) the value must
   * pass before any write that can create the row (`save`, `saveMany`,
   * `saveIf`, `replace`, `update`, `increment`) and in `create()`, run on the
   * value as given (a `Date`, a `bigint`, ...), before the key is encoded.
   * Its issues become one `ValidationError` listing each with its path
   * (`Entity.property`); HTTP 400. Synchronous validators only.
   *
   * @example
   * ```ts
   * @KeyPart(0, { type: 'string', maxLength: 64, validate: z.string().regex(/^[a-z0-9-]+$/) }) slug!: string;
   * ```
   */
  validate?: StandardValidator;
}

/**
 * Characters a `verbatim` string key part may hold.
 * @example
 * ```ts
 * @KeyPart(0, { type: 'string', verbatim: true, charset: 'alnum' })
 * ```
 * @inline
 */
export type VerbatimCharset = 'alnum' | 'word' | 'hex';

/**
 * Options of a class-level literal `@KeyPart`.
 * @example
 * ```ts
 * @KeyPart(0, { literal: 'event' })
 * ```
 * @inline
 */
export interface KeyLiteralOptions {
  /** Constant text of the component (must not contain the separator or `%`). */
  literal: string;
}

/** A recorded `@KeyPart`, property or literal. @internal */
export interface KeyPartDeclaration {
  position: number;
  property?: string;
  options: KeyPartOptions | KeyLiteralOptions;
}

/**
 * Built-in hash presets.
 * @example
 * ```ts
 * @Salt({ buckets: 8, hash: 'md5' })
 * ```
 * @inline
 */
export type SaltHashPreset = 'md5' | 'md5-int32' | 'java-string-hashcode' | 'java-string-hashcode-signed';

/**
 * A custom salt hash: any deterministic integer; the bucket is its non-negative remainder.
 * @example
 * ```ts
 * (s) => s.length
 * ```
 * @inline
 */
export type SaltHashFunction = (input: string) => number;

/**
 * Options of `@Salt`.
 * @example
 * ```ts
 * @Salt({ buckets: 8, on: ['userId', 'site'] })
 * ```
 */
export interface SaltOptions {
  /** Number of buckets (1–1000). */
  buckets: number;
  /** Key properties whose logical key text is hashed; a leading run of key parts. Default: the whole key. */
  on?: string[];
  /**
   * Hash preset or custom function. Default `md5`. A custom function may return
   * any deterministic integer; the bucket is its non-negative remainder.
   */
  hash?: SaltHashPreset | SaltHashFunction;
  /** Text of the salt segment, for adopting existing tables. */
  format?: {
    /** Minimum digits of the bucket number, zero-padded (1–16). Default: the digits of `buckets - 1`, at least 2. */
    width?: number;
    /** Text between the bucket and the logical key (non-empty, no `%`, not starting with a digit). Default: the key separator. */
    separator?: string;
  };
  /** Forward-only migration: salt only rows whose `component` (a timestamp key part) is at or after `from`. */
  since?: {
    /** The timestamp key property compared with `from`. */
    component: string;
    /** The cutoff: rows at or after it are salted, older rows keep their unsalted keys. */
    from: Date;
  };
  /**
   * Online re-salting: the layout rows were written with before this one (`null`: they were unsalted).
   * While it is declared, reads and scans consult both layouts (the new one wins), deletes delete in both,
   * and `mapper.resalt(Entity)` moves the old rows; then remove it.
   */
  previous?: PreviousSaltOptions | null;
}

/**
 * The previous layout of a salted entity being re-salted (`@Salt({ previous })`).
 * @example
 * ```ts
 * @Salt({ buckets: 16, previous: { buckets: 4, hash: 'md5' } })
 * ```
 * @inline
 */
export type PreviousSaltOptions = Pick<SaltOptions, 'buckets' | 'on' | 'hash' | 'format'>;

/**
 * Max age of cells: `'30d'`, `'12h'`, `'15m'`, `'90s'` or seconds.
 * @example
 * ```ts
 * '30d'
 * ```
 * @inline
 */
export type Duration = `${number}${'d' | 'h' | 'm' | 's'}` | number;

/**
 * Options of `@Family`.
 * @example
 * ```ts
 * @Family('measurements', { gc: { maxVersions: 5 } })
 * ```
 */
export interface FamilyOptions {
  /**
   * Garbage collection, compiled to the family's {@link GcRule}; omitted (or
   * empty), the family has no GC rule and `sync()` removes any it has.
   */
  gc?: {
    /** Keep at most this many versions of each column (a positive integer). Default: no version limit. */
    maxVersions?: number;
    /** Collect cells older than this: `'30d'`, `'12h'`, `'15m'`, `'90s'` or seconds. Default: no age limit. */
    maxAge?: Duration;
    /** How `maxVersions` and `maxAge` combine when both are set. Default `union`. */
    mode?: 'union' | 'intersection';
  };
  /**
   * Makes the family an aggregate family (Bigtable's `Aggregate` value type
   * over int64 input): `sum`, `min`, `max` or `hll` (HyperLogLog++ unique
   * count). Its columns are written only by `repo.add()` (`AddToCell`, and
   * `MergeToCell` for an `hll` sketch), which the server folds into one cell per
   * column; `sync` creates the family with its `value_type`, which cannot change
   * afterwards (docs/aggregates.md). Columns of `sum`, `min` and `max` families
   * are `int` or `bigint`; those of an `hll` family are `bytes` (the sketch).
   *
   * @example
   * ```ts
   * @Family('stats', { aggregate: 'sum' })
   * ```
   */
  aggregate?: AggregateKind;
}

/**
 * The aggregate of an aggregate family (`@Family(name, { aggregate })`):
 * `sum`, `min`, `max` (over int64 input) or `hll`, the HyperLogLog++ unique
 * count of int64 inputs.
 * @example
 * ```ts
 * const kind: AggregateKind = 'sum';
 * ```
 * @inline
 */
export type AggregateKind = 'sum' | 'min' | 'max' | 'hll';

/**
 * The `gc` option of `@Family`, as the compile step reads it. Not part of the
 * public API: an application writes `FamilyOptions['gc']`, and `GcRule` is the
 * compiled rule.
 * @example
 * ```ts
 * const policy: GcPolicy = { maxVersions: 5, maxAge: '30d', mode: 'union' };
 * ```
 */
export type GcPolicy = NonNullable<FamilyOptions['gc']>;

/** A recorded `@Family`. @internal */
export interface FamilyDeclaration {
  name: string;
  options: FamilyOptions;
}

/**
 * Cell value types.
 * @example
 * ```ts
 * @Column({ family: 'm', type: 'float' })
 * ```
 * @inline
 */
export type ColumnScalarType = 'string' | 'int' | 'float' | 'boolean' | 'date' | 'bigint' | 'json' | 'bytes';

/**
 * How a class-typed column is stored: `json`, one cell holding the object's
 * JSON (the default), or `flatten`, one cell per field.
 *
 * @example
 * ```ts
 * @Column({ family: 'a', type: Address, layout: 'flatten', fields: ['street', 'city'] }) address?: Address;
 * ```
 * @inline
 */
export type ColumnLayout = 'json' | 'flatten';

/**
 * Options of `@Column`.
 * @example
 * ```ts
 * @Column({ family: 'm', type: 'float', versions: 5 })
 * ```
 */
export interface ColumnOptions {
  /** Column family; must be declared with `@Family` on the entity. */
  family: string;
  /** Column qualifier. Default: the property name. */
  qualifier?: string;
  /** Value codec: a scalar type name, or a class (stored as JSON, hydrated with class-transformer). */
  type: ColumnScalarType | Constructor;
  /** Map the property to `{ value, timestamp }[]` of up to this many versions, newest first. */
  versions?: number;
  /** Class-typed columns only: one JSON cell (`json`, default) or one cell per field (`flatten`). */
  layout?: ColumnLayout;
  /**
   * `flatten` only: the fields of the class, as they appear in its plain
   * (`instanceToPlain`) form. Default: the class's `@Expose()`d properties.
   */
  fields?: readonly string[];
  /** `flatten` only: text before each field name in its qualifier. Default `<qualifier>.`. */
  fieldPrefix?: string;
  /**
   * A Standard Schema validator (zod, valibot, ArkType, ...) each value written
   * to the column must pass, checked before anything is sent by `save`,
   * `saveMany`, `saveIf`, `replace` and `update`, and by `create()`. It sees the
   * value as given, before encoding (a `Date`, a `bigint`, a `Buffer`, the
   * object of a class-typed column); for a versioned column, the `value` of
   * each version. An absent value (`undefined`, or `null`, which deletes the
   * cell) is not checked. Its issues become one `ValidationError` listing each
   * with its path (`Entity.property` and the path inside the value); HTTP 400.
   * Synchronous validators only; not on `@Denormalized` copies.
   *
   * @example
   * ```ts
   * @Column({ family: 'p', type: 'int', validate: z.number().int().min(0).max(150) }) age?: number;
   * ```
   */
  validate?: StandardValidator;
}

/** A recorded `@Column`. @internal */
export interface ColumnDeclaration {
  property: string;
  options: ColumnOptions;
}

/**
 * Options of `@Denormalized`: the column holds a copy of `field` of the source
 * entity whose key parts equal this entity's properties, as mapped by `key`
 * (source key part → property of this entity).
 *
 * @example
 * ```ts
 * @Denormalized({ from: () => Sensor, key: { id: 'sensorId' }, field: 'location' })
 * @Column({ family: 'meta', type: 'string' }) location?: string;
 * ```
 */
export interface DenormalizedOptions<S = unknown> {
  /** The source entity class (a thunk, so classes may be declared in any order). */
  from: () => Constructor<S>;
  /** Every key part of the source → the property of this entity that holds its value. */
  key: { readonly [K in keyof S & string]?: string };
  /** The source column copied. */
  field: keyof S & string;
  /** What a save does when the source row is missing: `error` (default) or `skip` (leave the copy unset). */
  onMissingSource?: 'error' | 'skip';
}

/** A recorded `@Denormalized`. @internal */
export interface DenormalizedDeclaration {
  property: string;
  options: {
    from: () => Constructor;
    key: Readonly<Record<string, string>>;
    field: string;
    onMissingSource?: 'error' | 'skip';
  };
}

/**
 * The data properties of an entity: its string-named properties that are not
 * methods (symbol-named markers such as `KeyParts` are left out).
 *
 * @example
 * ```ts
 * type P = DataProperty<Job>; // 'id' | 'status', not the method 'label'
 * ```
 */
export type DataProperty<T> = {
  [K in keyof T & string]-?: T[K] extends (...args: never[]) => unknown ? never : K;
}[keyof T & string];

/**
 * The data properties an entity declares without `?` (with `!` or an
 * initializer), as its key parts are declared. Without the `KeyParts`
 * marker, a key must hold at least one of them.
 *
 * @example
 * ```ts
 * type R = RequiredDataProperty<Job>; // 'id' (status?: string is optional)
 * ```
 */
export type RequiredDataProperty<T> = {
  [K in DataProperty<T>]-?: object extends Pick<T, K> ? never : K;
}[DataProperty<T>];

/**
 * Properties given to `repo.create()`: any of the entity's data properties,
 * with their own types.
 *
 * @example
 * ```ts
 * const props: EntityData<Job> = { id: 'j1', status: 'pending' };
 * const job = jobs.create(props); // a Job
 * ```
 */
export type EntityData<T> = { [K in DataProperty<T>]?: T[K] };
