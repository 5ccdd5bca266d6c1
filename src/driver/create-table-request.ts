import type { ActualFamily, RowKeySchema } from '../model/driver.js';
import type { GcRule } from '../model/gc-rule.js';
import type { AggregateKind } from '../model/declarations.js';

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
  rowKeySchema: RowKeySchema | undefined,
): Record<string, unknown> {
  const columnFamilies: Record<string, ProtoColumnFamily> = {};
  for (const family of families) columnFamilies[family.name] = protoColumnFamily(family);
  return {
    parent,
    tableId: table,
    table: {
      granularity: 0,
      columnFamilies,
      ...(rowKeySchema === undefined ? {} : { rowKeySchema: protoRowKeySchema(rowKeySchema) }),
    },
  };
}

/** A column family as the admin API's `ColumnFamily` message: its GC rule and, for an aggregate family, its value type. @internal */
export interface ProtoColumnFamily {
  gcRule?: ProtoGcRule;
  valueType?: Record<string, unknown>;
}

/**
 * The admin API's `ColumnFamily` of a family (protobuf object form): an
 * aggregate family's `valueType` is `Type.Aggregate` over `Int64` input in
 * its big-endian 8-byte encoding, the one Bigtable's aggregates take.
 * @internal
 * @example
 * ```ts
 * protoColumnFamily({ name: 'stats', gc: undefined, aggregate: 'sum' });
 * // { valueType: { aggregateType: { inputType: { int64Type: { encoding: { bigEndianBytes: {} } } }, sum: {} } } }
 * ```
 */
export function protoColumnFamily(family: ActualFamily): ProtoColumnFamily {
  return {
    ...(family.gc ? { gcRule: protoGcRule(family.gc) } : {}),
    ...(family.aggregate === undefined
      ? {}
      : {
          valueType: {
            aggregateType: { inputType: INT64_BIG_ENDIAN, [AGGREGATORS[family.aggregate]]: {} },
          },
        }),
  };
}

/** `Type.Int64` in the encoding of aggregate inputs: 8-byte big-endian two's complement. */
const INT64_BIG_ENDIAN = { int64Type: { encoding: { bigEndianBytes: {} } } };

/** The field of `Type.Aggregate`'s `aggregator` oneof of each aggregate. */
const AGGREGATORS: Readonly<Record<AggregateKind, string>> = {
  sum: 'sum',
  min: 'min',
  max: 'max',
  hll: 'hllppUniqueCount',
};

/**
 * The aggregate of a family as the admin API reports it (`valueType` of a
 * `ColumnFamily`): `undefined` for a family without an aggregate value type.
 * @internal
 * @example
 * ```ts
 * aggregateOf({ aggregateType: { sum: {}, aggregator: 'sum' } }); // 'sum'
 * ```
 */
export function aggregateOf(valueType: unknown): AggregateKind | undefined {
  const aggregate = (valueType as { aggregateType?: Record<string, unknown> | null } | null | undefined)?.aggregateType;
  if (aggregate === null || aggregate === undefined) return undefined;
  for (const [kind, field] of Object.entries(AGGREGATORS) as [AggregateKind, string][])
    if (aggregate['aggregator'] === field || (aggregate[field] !== null && aggregate[field] !== undefined)) return kind;
  return undefined;
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
