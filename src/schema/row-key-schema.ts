import type { RowKeySchema } from '../model/driver.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import type { OrderedFieldCodec } from '../codec/ordered-code.js';

/**
 * The row key schema `sync` declares for an entity's table: for
 * `keyFormat: 'ordered-code'`, the salt bucket `salt` (when salted), then
 * each key part by property name (a literal as `literal<position>`).
 * `undefined` for text keys, and for keys with a descending part: the admin
 * API's struct type has no way to mark a field descending, so GoogleSQL would
 * misread it.
 * @internal
 */
export function rowKeySchemaOf(schema: EntitySchema): RowKeySchema | undefined {
  const { key } = schema;
  if (key.format !== 'ordered-code') return undefined;
  if (key.components.some((c) => c.kind === 'property' && c.codec.descending)) return undefined;
  const fields = key.components.map((c) =>
    c.kind === 'literal'
      ? { name: `literal${c.position}`, type: 'string' as const }
      : { name: c.property, type: (c.codec as OrderedFieldCodec).schemaType },
  );
  return { fields: key.salt === undefined ? fields : [{ name: 'salt', type: 'int64' }, ...fields] };
}

/**
 * The row key schema in words, for change descriptions, e.g. `salt INT64, sensorId STRING`.
 * @internal
 */
export function describeRowKeySchema(schema: RowKeySchema): string {
  return schema.fields.map((f) => `${f.name} ${f.type.toUpperCase()}`).join(', ');
}
