import type { ActualFamily, RowKeySchema } from '../model/driver.js';
import type { GcRule } from '../model/gc-rule.js';

/** A GC rule as the admin API's `GcRule` message (protobuf object form). @internal */
export type ProtoGcRule =
  | { maxNumVersions: number }
  | { maxAge: { seconds: number; nanos: number } }
  | { union: { rules: ProtoGcRule[] } }
  | { intersection: { rules: ProtoGcRule[] } };

/**
 * The admin API's `CreateTableRequest` (protobuf object form) for a table
 * with these families and row key schema, under instance `parent`. The
 * client's `instance.createTable()` has no option for the row key schema, so
 * such tables are created with this request.
 * @internal
 * @example
 * ```ts
 * createTableRequest('projects/p/instances/i', 'readings', [{ name: 'm', gc: undefined }], schema);
 * ```
 */
export function createTableRequest(
  parent: string,
  table: string,
  families: readonly ActualFamily[],
  rowKeySchema: RowKeySchema,
): Record<string, unknown> {
  const columnFamilies: Record<string, { gcRule?: ProtoGcRule }> = {};
  for (const family of families) columnFamilies[family.name] = family.gc ? { gcRule: protoGcRule(family.gc) } : {};
  return {
    parent,
    tableId: table,
    table: { granularity: 0, columnFamilies, rowKeySchema: protoRowKeySchema(rowKeySchema) },
  };
}

/** A GC rule as the admin API's `GcRule` message. */
function protoGcRule(rule: GcRule): ProtoGcRule {
  switch (rule.kind) {
    case 'maxVersions':
      return { maxNumVersions: rule.count };
    case 'maxAge': {
      const seconds = Math.floor(rule.seconds);
      return { maxAge: { seconds, nanos: Math.round((rule.seconds - seconds) * 1e9) } };
    }
    case 'union':
      return { union: { rules: rule.rules.map(protoGcRule) } };
    case 'intersection':
      return { intersection: { rules: rule.rules.map(protoGcRule) } };
  }
}

const ORDERED_CODE_INT64 = { encoding: { orderedCodeBytes: {} } };

const FIELD_TYPES: Readonly<Record<RowKeySchema['fields'][number]['type'], Record<string, unknown>>> = {
  string: { stringType: { encoding: { utf8Bytes: {} } } },
  int64: { int64Type: ORDERED_CODE_INT64 },
  timestamp: { timestampType: { encoding: { unixMicrosInt64: ORDERED_CODE_INT64.encoding } } },
  bytes: { bytesType: { encoding: { raw: {} } } },
};

/** The admin API's `Type.Struct` of a row key schema, `OrderedCodeBytes` encoded. */
function protoRowKeySchema(schema: RowKeySchema): Record<string, unknown> {
  return {
    fields: schema.fields.map((f) => ({ fieldName: f.name, type: FIELD_TYPES[f.type] })),
    encoding: { orderedCodeBytes: {} },
  };
}
