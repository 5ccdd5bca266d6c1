import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import { COMPILED, type ColumnSchema, type EntitySchema } from '../metadata/entity-schema.js';
import type { CellMutation, SendableSetCell, TextValue } from '../model/mutation.js';
import { utf8Length } from '../util/utf8-length.js';
import { encodeEmbedded } from '../codec/embedded-codec.js';
import { checkCellSize, MAX_CELL_BYTES } from './request-limits.js';

/**
 * Turns one column's value into cell mutations: `undefined` writes nothing,
 * `null` deletes the cell (every field cell of a `flatten` column), a
 * versioned column's `{ value, timestamp }[]` writes one cell per version, a
 * `flatten` column's object one cell per defined field (absent fields are left
 * alone; `replace` clears them with the rest of the row).
 * @internal
 */
export function compileColumnValue(
  schema: EntitySchema,
  column: ColumnSchema,
  value: unknown,
  timestampMicros: number,
): CellMutation[] {
  const cells: CellMutation[] = [];
  pushColumnCells(schema, column, value, timestampMicros, cells);
  return cells;
}

/**
 * {@link compileColumnValue} appending to `out` (no array per column on the
 * bulk-write path); true when it appended a `setCell`.
 * @internal
 */
export function pushColumnCells(
  schema: EntitySchema,
  column: ColumnSchema,
  value: unknown,
  timestampMicros: number,
  out: CellMutation[],
  textValues = false,
): boolean {
  if (value === undefined) return false;
  const { family, qualifier } = column;
  const { qualifiers, qualifierBytes } = column[COMPILED];
  if (value === null) {
    for (let i = 0; i < qualifiers.length; i++)
      out.push(new DeleteFromColumn(family, qualifiers[i] as string, qualifierBytes[i] as Buffer));
    return false;
  }
  if (column.layout === 'flatten') {
    const fields = encodeEmbedded({ entity: schema.name, property: column.property }, column, value);
    for (const cell of fields) {
      checkCellSize(schema.name, column.property, cell.value);
      const at = qualifiers.indexOf(cell.field.qualifier);
      out.push(new SetCell(family, cell.field.qualifier, qualifierBytes[at] as Buffer, timestampMicros, cell.value));
    }
    return fields.length > 0;
  }
  const bytes = qualifierBytes[0] as Buffer;
  if (column.versioned && Array.isArray(value)) {
    for (const [i, version] of value.entries()) {
      if (version === null || typeof version !== 'object' || !('value' in version)) {
        throw new ValidationError(
          `${schema.name}.${column.property}[${i}]: a versioned column holds { value, timestamp } objects. Fix: write [{ value, timestamp: new Date() }] or a plain value for a new version`,
          { entity: schema.name, property: column.property },
        );
      }
      const { value: v, timestamp } = version as { value: unknown; timestamp?: unknown };
      const micros =
        timestamp === undefined ? timestampMicros : toMicros(schema, `${column.property}[${i}].timestamp`, timestamp);
      const encoded = column.codec.encode(v);
      checkCellSize(schema.name, column.property, encoded);
      out.push(new SetCell(family, qualifier, bytes, micros, encoded));
    }
    return value.length > 0;
  }
  const codec = column.codec;
  if (textValues && codec.encodeText !== undefined) {
    const text = codec.encodeText(value);
    const length = utf8Length(text);
    if (length > MAX_CELL_BYTES) checkCellSize(schema.name, column.property, Buffer.from(text, 'utf8'));
    out.push(new TextSetCell(family, qualifier, bytes, timestampMicros, text, length));
    return true;
  }
  const encoded = codec.encode(value);
  checkCellSize(schema.name, column.property, encoded);
  out.push(new SetCell(family, qualifier, bytes, timestampMicros, encoded));
  return true;
}

/**
 * A `@Denormalized` copy written whole: every cell of the column is deleted,
 * then the value's cells are written (none for `null`), in one mutation. The
 * copy then holds exactly this value, whatever timestamps its older cells
 * carried, so no writer's clock decides which copy a read returns.
 * `undefined` writes nothing; true when it appended a `setCell`.
 * @internal
 */
export function pushCopyCells(
  schema: EntitySchema,
  column: ColumnSchema,
  value: unknown,
  timestampMicros: number,
  out: CellMutation[],
): boolean {
  if (value === undefined) return false;
  const { qualifiers, qualifierBytes } = column[COMPILED];
  for (let i = 0; i < qualifiers.length; i++)
    out.push(new DeleteFromColumn(column.family, qualifiers[i] as string, qualifierBytes[i] as Buffer));
  return value === null ? false : pushColumnCells(schema, column, value, timestampMicros, out);
}

/**
 * A `setCell` carrying the qualifier's bytes from the compiled column, so the
 * driver does not encode the qualifier of every cell, and sendable as it is
 * ({@link SendableSetCell}). The bytes sit in a private field and the wire
 * names are getters: the mutation prints, compares and serializes as the
 * plain {@link CellMutation} it is. {@link SetCell} holds its value's bytes,
 * {@link TextSetCell} its text.
 */
abstract class ColumnSetCell implements SendableSetCell {
  readonly kind: 'setCell';
  readonly family: string;
  readonly qualifier: string;
  readonly timestampMicros: number;
  readonly #qualifierBytes: Buffer;
  abstract readonly value: Buffer;

  constructor(family: string, qualifier: string, qualifierBytes: Buffer, timestampMicros: number) {
    this.kind = 'setCell';
    this.family = family;
    this.qualifier = qualifier;
    this.timestampMicros = timestampMicros;
    this.#qualifierBytes = qualifierBytes;
  }

  get qualifierBytes(): Buffer {
    return this.#qualifierBytes;
  }

  get setCell(): this {
    return this;
  }

  get familyName(): string {
    return this.family;
  }

  get columnQualifier(): Buffer {
    return this.#qualifierBytes;
  }
}

/** A {@link ColumnSetCell} with its value's bytes. */
class SetCell extends ColumnSetCell {
  readonly value: Buffer;

  constructor(family: string, qualifier: string, qualifierBytes: Buffer, timestampMicros: number, value: Buffer) {
    super(family, qualifier, qualifierBytes, timestampMicros);
    this.value = value;
  }
}

/**
 * A {@link ColumnSetCell} of a string column that keeps its value as text
 * ({@link TextValue}) for a driver that encodes the row at once (a bulk
 * writer's): the value's bytes are made only if something reads `value`.
 */
class TextSetCell extends ColumnSetCell implements TextValue {
  readonly valueText: string;
  readonly valueLength: number;
  #value: Buffer | undefined;

  constructor(
    family: string,
    qualifier: string,
    qualifierBytes: Buffer,
    timestampMicros: number,
    text: string,
    length: number,
  ) {
    super(family, qualifier, qualifierBytes, timestampMicros);
    this.valueText = text;
    this.valueLength = length;
  }

  get value(): Buffer {
    this.#value ??= Buffer.from(this.valueText, 'utf8');
    return this.#value;
  }
}

/** A `deleteFromColumn` carrying the qualifier's bytes, like {@link SetCell}. */
class DeleteFromColumn {
  readonly kind: 'deleteFromColumn';
  readonly family: string;
  readonly qualifier: string;
  readonly #qualifierBytes: Buffer;

  constructor(family: string, qualifier: string, qualifierBytes: Buffer) {
    this.kind = 'deleteFromColumn';
    this.family = family;
    this.qualifier = qualifier;
    this.#qualifierBytes = qualifierBytes;
  }

  get qualifierBytes(): Buffer {
    return this.#qualifierBytes;
  }
}

/**
 * Latest cell time written, in epoch milliseconds (2255-06-05T23:47:34.740Z):
 * its microseconds are still a safe integer, so every timestamp sent is an
 * exact whole number of milliseconds (a multiple of 1000 µs, as Bigtable
 * requires) inside the int64 range. Later Dates round to microsecond values
 * the server rejects.
 */
const MAX_CELL_TIME_MS = Math.floor(Number.MAX_SAFE_INTEGER / 1000);

/**
 * Converts a cell time to Bigtable's microseconds (millisecond granularity).
 * Throws `ValidationError` naming the property for anything but a Date from
 * 1970-01-01 to {@link MAX_CELL_TIME_MS}.
 */
function toMicros(schema: EntitySchema, property: string, time: unknown): number {
  const ms = time instanceof Date ? time.getTime() : Number.NaN;
  if (!(ms >= 0 && ms <= MAX_CELL_TIME_MS)) {
    throw new ValidationError(
      `${schema.name}.${property}: cell timestamps must be valid Dates from 1970-01-01 to ${new Date(MAX_CELL_TIME_MS).toISOString()} (whole milliseconds Bigtable stores exactly), got ${preview(time)}. Fix: pass a Date in that range`,
      { entity: schema.name, property },
    );
  }
  return ms * 1000;
}

/**
 * The timestamp of every cell a save writes: the `@CellTimestamp()` property
 * when it is set, otherwise `now`.
 * @internal
 */
export function rowTimestampMicros(schema: EntitySchema, entity: Record<string, unknown>, now: number): number {
  const stamp = schema.cellTimestamp === undefined ? undefined : entity[schema.cellTimestamp];
  if (stamp === undefined || stamp === null) return now * 1000;
  return toMicros(schema, schema.cellTimestamp as string, stamp);
}
