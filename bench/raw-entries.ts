import { FAMILY, type WideValues } from './entities.js';
import { floatBytes, int64Bytes, STRING_COLUMNS } from './dataset.js';

/** A `table.insert` object entry, as a user of the raw client writes it. @example `objectEntry('row#1', values)` */
export interface ObjectEntry {
  key: string;
  data: Record<string, Record<string, string | number | Buffer>>;
}

/** A pre-built MutateRows entry for `table.mutate(entries, { rawMutation: true })`. @example `prebuiltEntry('row#1', values, micros)` */
export interface PrebuiltEntry {
  rowKey: Buffer;
  mutations: { setCell: { familyName: string; columnQualifier: Buffer; timestampMicros: number; value: Buffer } }[];
}

const QUALIFIERS = [...STRING_COLUMNS, 'count', 'score'].map((q) => Buffer.from(q, 'utf8'));

/**
 * The raw object entry for one wide row: strings as strings, `count` as a JS
 * number (the client writes it as int64, the same bytes as the mapper's `int`
 * codec), `score` as float64 bytes (the client would truncate a number).
 * @example `await table.insert(rows.map((r) => objectEntry(wideKey(r.id), r)))`
 */
export function objectEntry(key: string, v: WideValues): ObjectEntry {
  return {
    key,
    data: {
      [FAMILY]: {
        s0: v.s0,
        s1: v.s1,
        s2: v.s2,
        s3: v.s3,
        s4: v.s4,
        s5: v.s5,
        s6: v.s6,
        s7: v.s7,
        count: v.count,
        score: floatBytes(v.score),
      },
    },
  };
}

/** The same row as the object entry, only the cell data (`row.save(data)` takes this). @example `await table.row(key).save(rowData(v))` */
export function rowData(v: WideValues): ObjectEntry['data'] {
  return objectEntry('', v).data;
}

/** A hand-built raw entry for one wide row, with explicit cell timestamps and shared qualifier buffers. @example `prebuiltEntry(wideKey(1), v, Date.now() * 1000)` */
export function prebuiltEntry(key: string, v: WideValues, timestampMicros: number): PrebuiltEntry {
  const values: Buffer[] = [v.s0, v.s1, v.s2, v.s3, v.s4, v.s5, v.s6, v.s7].map((s) => Buffer.from(s, 'utf8'));
  values.push(int64Bytes(v.count), floatBytes(v.score));
  return {
    rowKey: Buffer.from(key, 'utf8'),
    mutations: values.map((value, i) => ({
      setCell: { familyName: FAMILY, columnQualifier: QUALIFIERS[i] as Buffer, timestampMicros, value },
    })),
  };
}

/**
 * A pre-built entry as a class instance: the client's `extend(true)` deep copy
 * of every request passes class instances by reference (the same workaround
 * the mapper's driver uses). @example `new PrebuiltInstance(prebuiltEntry(k, v, micros))`
 */
export class PrebuiltInstance {
  /** Row key bytes. */
  readonly rowKey: Buffer;
  /** Raw mutations. */
  readonly mutations: PrebuiltEntry['mutations'];

  constructor(entry: PrebuiltEntry) {
    this.rowKey = entry.rowKey;
    this.mutations = entry.mutations;
  }
}

/** A hand-built raw entry with one string cell `v` (the memory check's small rows). @example `smallEntry('m#0000000001', 'v…', micros)` */
export function smallEntry(key: string, value: string, timestampMicros: number): PrebuiltEntry {
  return {
    rowKey: Buffer.from(key, 'utf8'),
    mutations: [
      {
        setCell: {
          familyName: FAMILY,
          columnQualifier: Buffer.from('v'),
          timestampMicros,
          value: Buffer.from(value, 'utf8'),
        },
      },
    ],
  };
}
