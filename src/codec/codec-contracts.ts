import type {
  ColumnScalarType,
  Constructor,
  KeyPartType,
  TimestampKeyFormat,
  VerbatimCharset,
} from '../model/declarations.js';

/**
 * What keeps a verbatim string part decodable besides being last: a fixed
 * width in UTF-16 code units and/or a charset without the separator.
 * @internal
 */
export interface VerbatimRules {
  readonly width?: number | undefined;
  readonly charset?: VerbatimCharset | undefined;
}

/**
 * Encodes one typed row-key component to text and back. Built per property by
 * `compileEntity`; throws `KeyEncodingError` naming `Entity.property`.
 *
 */
export interface KeyComponentCodec {
  /** The `@KeyPart` type. */
  readonly type: KeyPartType;
  /** Zero-padded digits for numeric/epoch encodings; undefined for strings and ISO timestamps. */
  readonly width: number | undefined;
  /** True when encoded newest/largest first (`10^width − 1 − value`). */
  readonly descending: boolean;
  /** Text form of a timestamp component (`iso` by default); undefined for other types. */
  readonly format: TimestampKeyFormat | undefined;
  /** Longest value in UTF-16 code units (`@KeyPart` `maxLength`); only string components have one. */
  readonly maxLength?: number | undefined;
  /**
   * A `verbatim` string part's width and charset (`@KeyPart` `verbatim: true`);
   * `undefined` for every escaped component.
   * @internal
   */
  readonly verbatim?: VerbatimRules | undefined;
  /** Value → component text (escaped, never holding the separator, unless `verbatim`). */
  encode(value: unknown): string;
  /** Component text → value. */
  decode(text: string): unknown;
  /**
   * What `decode` returns for the UTF-8 text of `bytes[start, end)`, read
   * from the bytes; `undefined` when the text must decide (not exactly
   * `width` ASCII digits, or no exact number path). Only `uint` and epoch
   * timestamp codecs have it.
   * @internal
   */
  readonly decodeBytes?: (bytes: Uint8Array, start: number, end: number) => unknown;
}

/**
 * Encodes a cell value to bytes and back. Built per column by `compileEntity`;
 * throws `ValueEncodingError` naming `Entity.property`.
 *
 */
export interface ValueCodec {
  /** The column type, or `class` for class-typed columns. */
  readonly type: ColumnScalarType | 'class';
  /** Value → cell bytes. */
  encode(value: unknown): Buffer;
  /**
   * For a codec whose cell bytes are the UTF-8 of a string (`string`): the
   * string, checked as `encode` checks the value, so that a writer that
   * encodes rows itself writes it without a buffer of its own.
   * @internal
   */
  encodeText?(value: unknown): string;
  /** Cell bytes → value. */
  decode(bytes: Buffer): unknown;
}

/**
 * One field of a `flatten` column: its name in the class's plain form and the
 * qualifier of its cell (holding the field's JSON).
 *
 * @example
 * ```ts
 * schema.columnsByProperty.address.fields; // [{ name: 'street', qualifier: 'address.street' }, ...]
 * ```
 */
export interface EmbeddedFieldSchema {
  /** Field name in the class's plain (`instanceToPlain`) form. */
  readonly name: string;
  /** Qualifier of the field's cell (`fieldPrefix` + name; default prefix `<qualifier>.`). */
  readonly qualifier: string;
}

/** What the embedded codec needs of a compiled `flatten` column. @internal */
export interface EmbeddedColumn {
  /** The embedded class. */
  readonly classType: Constructor | undefined;
  /** One cell per field. */
  readonly fields: readonly EmbeddedFieldSchema[] | undefined;
}
