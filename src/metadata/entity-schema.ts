import type { EmbeddedFieldSchema, KeyComponentCodec, ValueCodec } from '../codec/codec-contracts.js';

import type { GcRule } from '../model/gc-rule.js';
import type { DenormalizedSchema } from './denormalized-schema.js';
import type {
  AggregateKind,
  ColumnLayout,
  ColumnScalarType,
  Constructor,
  KeyFormat,
  SaltHashPreset,
} from '../model/declarations.js';
import type { LintSuppression } from '../model/lint-rule.js';
import type { ValidatedProperty } from './property-validator.js';

export type { EmbeddedFieldSchema } from '../codec/codec-contracts.js';
export type { DenormalizedSchema, PropagationStrategy } from './denormalized-schema.js';

/**
 * Key of the internal part of a compiled schema object (entity, key plan,
 * column): what the compile pass derives from the declarations, once, for the
 * runtime to read. Non-enumerable, so schemas print and compare as their
 * documented fields.
 * @internal
 */
export const COMPILED: unique symbol = Symbol('bigtable-mapper:compiled');

/**
 * One component of the logical row key: constant text (`literal`) or the
 * value of an entity property (`property`), told apart by `kind`.
 *
 * @example
 * ```ts
 * schema.key.components.map((c) => (c.kind === 'literal' ? c.literal : c.property)); // ['event', 'source', 'at']
 * ```
 */
export type KeyComponentSchema =
  | {
      /** Constant text. */
      readonly kind: 'literal';
      /** Position in the key, from 0 (the `@KeyPart` index). */
      readonly position: number;
      /** The text. */
      readonly literal: string;
    }
  | {
      /** The value of an entity property. */
      readonly kind: 'property';
      /** Position in the key, from 0 (the `@KeyPart` index). */
      readonly position: number;
      /** Property name. */
      readonly property: string;
      /** Encodes the property's values to component text and back. @internal */
      readonly codec: KeyComponentCodec;
    };

/**
 * A compiled `@Salt`.
 * @example
 * ```ts
 * schema.key.salt?.bucketOf('user42#web')
 * ```
 */
export interface SaltSchema {
  /** Number of buckets. */
  readonly buckets: number;
  /** Properties hashed, in key order. */
  readonly on: readonly string[];
  /** Number of leading key components (literals included) whose logical text is hashed. */
  readonly prefixLength: number;
  /** Preset name, or `custom`. */
  readonly hash: SaltHashPreset | 'custom';
  /** Salt input text → bucket (negative only for `java-string-hashcode-signed`). */
  readonly bucketOf: (input: string) => number;
  /** Minimum digits of the bucket text. */
  readonly width: number;
  /** Text between the bucket and the logical key. */
  readonly separator: string;
  /** Every bucket a full scan must visit, ascending. */
  readonly allBuckets: readonly number[];
  /** Forward-only migration cutoff; `undefined` when every row is salted. */
  readonly since:
    | {
        /** The timestamp key property compared with `from`. */
        readonly component: string;
        /** Its position in the key. */
        readonly position: number;
        /** Rows at or after this instant are salted; older rows are not. */
        readonly from: Date;
      }
    | undefined;
  /** Online re-salting: the layout rows are moved from (`null`: unsalted); `undefined` when none is declared. */
  readonly previous?: SaltSchema | null;
}

/**
 * The compiled row-key layout.
 * @example
 * ```ts
 * schema.key.properties // ['sensorId', 'ts']
 * ```
 */
export interface KeyPlan {
  /** `text`: components as text between separators; `ordered-code`: Bigtable's structured `OrderedCodeBytes` key (`@Entity` `keyFormat`). */
  readonly format: KeyFormat;
  /** Separator between key components (`@Entity` `separator`, default `#`). */
  readonly separator: string;
  /** Key components, literals included, in position order. */
  readonly components: readonly KeyComponentSchema[];
  /** Property components' names, in key order. */
  readonly properties: readonly string[];
  /** The compiled `@Salt`; `undefined` when the entity is not salted. */
  readonly salt: SaltSchema | undefined;
  /** What the compile pass derived from the plan; absent from key plans built by hand. @internal */
  readonly [COMPILED]?: CompiledKey;
}

/**
 * A compiled `@Column`.
 * @example
 * ```ts
 * schema.columnsByProperty.temperature.family // 'measurements'
 * ```
 */
export interface ColumnSchema {
  /** The entity property. */
  readonly property: string;
  /** Column family. */
  readonly family: string;
  /** Column qualifier (default: the property name). */
  readonly qualifier: string;
  /** The column type, or `class` for class-typed columns. */
  readonly type: ColumnScalarType | 'class';
  /** The class, for class-typed columns. */
  readonly classType: Constructor | undefined;
  /** Encodes and decodes the column's cells. @internal */
  readonly codec: ValueCodec;
  /** Versions hydrated (1 for plain columns). */
  readonly versions: number;
  /** True when declared with `versions`: the property holds `{ value, timestamp }[]`. */
  readonly versioned: boolean;
  /** How a class-typed column is stored (`json` or `flatten`); `undefined` for scalar types. */
  readonly layout: ColumnLayout | undefined;
  /** The cells of a `flatten` column, one per field; `undefined` for every other column. */
  readonly fields: readonly EmbeddedFieldSchema[] | undefined;
  /** The aggregate of the column's family (`@Family(name, { aggregate })`); `undefined` for a column of a plain family. */
  readonly aggregate?: AggregateKind | undefined;
  /** What the compile pass derived from the column. @internal */
  readonly [COMPILED]: CompiledColumn;
}

/**
 * A compiled `@Family`.
 * @example
 * ```ts
 * { name: 'measurements', gc: { kind: 'maxVersions', count: 5 } }
 * ```
 */
export interface FamilySchema {
  /** Family name. */
  readonly name: string;
  /** The normalised GC rule of the `@Family` policy; `undefined` when there is none. */
  readonly gc: GcRule | undefined;
  /** The family's aggregate (`@Family(name, { aggregate })`); `undefined` for a plain family. */
  readonly aggregate?: AggregateKind | undefined;
}

/**
 * Everything the mapper knows about an entity, validated and deep-frozen.
 *
 * @example
 * ```ts
 * const schema = compileEntity(Reading);
 * schema.table; // 'readings'
 * ```
 */
export interface EntitySchema<T = unknown> {
  /** Class name, used in messages. */
  readonly name: string;
  /** The entity class. */
  readonly target: Constructor<T>;
  /** Bigtable table id (`@Entity` `table`). */
  readonly table: string;
  /** Row-key layout and salt. */
  readonly key: KeyPlan;
  /** Families declared with `@Family`. */
  readonly families: readonly FamilySchema[];
  /** Columns declared with `@Column`. */
  readonly columns: readonly ColumnSchema[];
  /** The same columns, by property name. */
  readonly columnsByProperty: Readonly<Record<string, ColumnSchema>>;
  /** Property decorated with `@CellTimestamp()`. */
  readonly cellTimestamp: string | undefined;
  /** Columns declared `@Denormalized`, copies of other entities' columns. */
  readonly denormalized: readonly DenormalizedSchema[];
  /** `lintEntity()` findings this entity suppresses, with their reasons (`@Entity` `lint.ignore`). */
  readonly lintSuppressions: readonly LintSuppression[];
  /** What the compile pass derived from the entity. @internal */
  readonly [COMPILED]: CompiledEntity;
}

/** One component of a key byte layout: a literal's bytes, or a property whose digits decode from the bytes. @internal */
export type KeyByteStep =
  | { readonly literal: Buffer; readonly property?: undefined; readonly decode?: undefined }
  | {
      readonly literal?: undefined;
      readonly property: string;
      readonly decode: (bytes: Uint8Array, start: number, end: number) => unknown;
    };

/** A logical key of literals and digit components split by a one-byte ASCII separator: it decodes straight from the key bytes. @internal */
export interface KeyByteLayout {
  readonly separator: number;
  readonly steps: readonly KeyByteStep[];
}

/** What the compile pass derives from a key plan. */
interface CompiledKey {
  /** The layout the logical key decodes by from bytes; `undefined` when some component needs the text. */
  readonly byteLayout: KeyByteLayout | undefined;
  /** While re-salting (`@Salt({ previous })`), the same key with the previous layout as its salt. */
  readonly previous: KeyPlan | undefined;
}

/** What the compile pass derives from a column. */
interface CompiledColumn {
  /** The qualifiers of the column's cells: one per field of a `flatten` column, else its own qualifier. */
  readonly qualifiers: readonly string[];
  /** Their UTF-8 bytes, in the same order. */
  readonly qualifierBytes: readonly Buffer[];
}

/** A column as `hydrate` reads it for one entity. @internal */
export interface ColumnPlan {
  readonly column: ColumnSchema;
  /** The family's GC rule; `undefined` when the family has none (every cell is live). */
  readonly gc: GcRule | undefined;
  /** The family or a qualifier is named like an `Object.prototype` member: look cells up as own properties only. */
  readonly inherited: boolean;
  /** A `@Denormalized` copy: its cells carry the time they were copied, so they do not count toward `@CellTimestamp`. */
  readonly copy: boolean;
}

/** What the compile pass derives from an entity. */
interface CompiledEntity {
  /** Every column as `hydrate` reads it, in column order: the plan of a read of all columns. */
  readonly columns: readonly ColumnPlan[];
  /** The key parts and columns with a `validate` validator, key parts first. */
  readonly validated: readonly ValidatedProperty[];
}

/** Gives a compiled object, not yet frozen, its internal part. @internal */
export function withCompiled<T extends object, C>(target: T, compiled: C): T & { readonly [COMPILED]: C } {
  Object.defineProperty(target, COMPILED, { value: compiled });
  return target as T & { readonly [COMPILED]: C };
}
