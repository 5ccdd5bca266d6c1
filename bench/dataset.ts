import type { WideValues } from './entities.js';

const FILL = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The string column names, in order. @example `STRING_COLUMNS[0] // 's0'` */
export const STRING_COLUMNS = ['s0', 's1', 's2', 's3', 's4', 's5', 's6', 's7'] as const;

/** The `id` zero-padded to the 10 digits every bench key uses. @example `pad10(42) // '0000000042'` */
export function pad10(id: number): string {
  return String(id).padStart(10, '0');
}

/** Physical key of wide row `id`, exactly as the mapper encodes it. @example `wideKey(42) // 'row#0000000042'` */
export function wideKey(id: number): string {
  return `row#${pad10(id)}`;
}

/** Logical (unsalted) key of salted event `id`. @example `eventKey(42) // 'event#0000000042'` */
export function eventKey(id: number): string {
  return `event#${pad10(id)}`;
}

/**
 * Deterministic values of row `id`: eight 32-character strings, an int and a
 * float. The strings are flat, as a parser (`JSON.parse`, a message decoder)
 * hands them to an application: V8 keeps a concatenation as a rope of its
 * parts, which every encoder, the mapper's and the raw client's alike, would
 * first copy into one string, in the timed part of a write.
 * @example `wideValues(1).s0.length // 32`
 */
export function wideValues(id: number): WideValues {
  const tag = id.toString(36);
  const text = (column: number): string => {
    const head = `${column}:${tag}:`;
    const start = (id * 7 + column * 11) % FILL.length;
    return flat(head + (FILL.slice(start) + FILL).slice(0, 32 - head.length));
  };
  return {
    id,
    s0: text(0),
    s1: text(1),
    s2: text(2),
    s3: text(3),
    s4: text(4),
    s5: text(5),
    s6: text(6),
    s7: text(7),
    count: id,
    score: id / 7,
  };
}

/** One flat string of the same (ASCII) characters. */
function flat(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}

/** Plain values of rows `from` … `from + count − 1`. @example `plainRows(0, 1000)` */
export function plainRows(from: number, count: number): WideValues[] {
  return Array.from({ length: count }, (_, i) => wideValues(from + i));
}

/** Instances of `Cls` for rows `from` … `from + count − 1`. @example `entities(Wide, 0, 1000)` */
export function entities<T extends object>(Cls: new () => T, from: number, count: number): T[] {
  return Array.from({ length: count }, (_, i) => Object.assign(new Cls(), wideValues(from + i)));
}

/** The 8-byte big-endian float64 the mapper's `float` codec writes. @example `floatBytes(0.5)` */
export function floatBytes(value: number): Buffer {
  const bytes = Buffer.allocUnsafe(8);
  bytes.writeDoubleBE(value);
  return bytes;
}

/** The 8-byte big-endian int64 the mapper's `int` codec writes. @example `int64Bytes(7)` */
export function int64Bytes(value: number): Buffer {
  const bytes = Buffer.allocUnsafe(8);
  bytes.writeBigInt64BE(BigInt(value));
  return bytes;
}

/** A small row's 16-byte value. @example `smallValue(3)` */
export function smallValue(id: number): string {
  return `v${pad10(id)}xxxxx`;
}

/** A pseudo-random permutation sample of `count` ids below `rows` (deterministic). @example `sampleIds(100000, 1000)` */
export function sampleIds(rows: number, count: number): number[] {
  let state = 0x9e3779b9;
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    out.push(state % rows);
  }
  return out;
}
