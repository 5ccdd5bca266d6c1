import { instanceToPlain, plainToInstance } from 'class-transformer';
import type { EmbeddedColumn, EmbeddedFieldSchema } from './codec-contracts.js';
import type { Constructor } from '../model/declarations.js';
import { refuseProtoKeys, valueError, type ValueCodecContext } from './value-codecs.js';
import { parseJsonBytes, toJsonBytes } from './value-codecs.js';

/** One field cell of a flattened object. */
interface EmbeddedCell {
  readonly field: EmbeddedFieldSchema;
  readonly value: Buffer;
}

/**
 * Encodes a `flatten` column's object: `instanceToPlain`, then one UTF-8 JSON
 * cell per field whose plain value is defined (so numbers, booleans, nested
 * objects and Dates round-trip). A plain field that is not in the column's
 * field list throws `ValueEncodingError` rather than being dropped, and so
 * does a `__proto__` key at any depth.
 * @internal
 */
export function encodeEmbedded(ctx: ValueCodecContext, column: EmbeddedColumn, value: unknown): EmbeddedCell[] {
  const fields = column.fields ?? [];
  const name = column.classType?.name || 'class';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw valueError(
      ctx,
      value,
      `is not a valid ${name} value: a flattened column stores one object. Fix: pass an instance of ${name} (or a plain object of its shape)`,
    );
  }
  refuseProtoKeys(ctx, value, name);
  const plain = instanceToPlain(value) as Record<string, unknown>;
  const unknown = Object.keys(plain).find((k) => plain[k] !== undefined && !fields.some((f) => f.name === k));
  if (unknown !== undefined) {
    throw valueError(
      ctx,
      value,
      `has field "${unknown}", which is not one of the flattened fields (${fields.map((f) => f.name).join(', ')}), so it would be lost. Fix: add '${unknown}' to fields (or @Expose() it)`,
    );
  }
  return fields.flatMap((field) => {
    const v = plain[field.name];
    return v === undefined
      ? []
      : [{ field, value: toJsonBytes({ entity: ctx.entity, property: `${ctx.property}.${field.name}` }, v, 'json') }];
  });
}

/**
 * Rebuilds a `flatten` column's object from its field cells (latest value per
 * qualifier) with `plainToInstance`, so nested `@Type` classes apply.
 * `undefined` when no field cell is present.
 * @internal
 */
export function decodeEmbedded(
  ctx: ValueCodecContext,
  column: EmbeddedColumn,
  cells: ReadonlyMap<string, Buffer>,
): unknown {
  const plain: Record<string, unknown> = {};
  let found = false;
  for (const field of column.fields ?? []) {
    const bytes = cells.get(field.qualifier);
    if (bytes === undefined) continue;
    plain[field.name] = parseJsonBytes(
      { entity: ctx.entity, property: `${ctx.property}.${field.name}` },
      bytes,
      'json',
    );
    found = true;
  }
  return found ? plainToInstance(column.classType as Constructor, plain) : undefined;
}
