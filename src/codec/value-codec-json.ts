import type { ValueCodec } from './codec-contracts.js';
import { valueError, type ValueCodecContext } from './value-codec-context.js';
import { decodeUtf8Strict } from './utf8.js';

function unsupported(key: string, value: unknown): string | undefined {
  const at = key === '' ? '' : ` at "${key}"`;
  if (typeof value === 'bigint') return `holds a bigint${at}, which JSON cannot store`;
  if (typeof value === 'function' || typeof value === 'symbol')
    return `holds a ${typeof value}${at}, which JSON would drop`;
  if (typeof value === 'number' && !Number.isFinite(value))
    return `holds ${value}${at}, which JSON would store as null`;
  return undefined;
}

/**
 * `JSON.stringify` that never loses data silently: rejects bigints,
 * functions, symbols, non-finite numbers, cycles and values with no JSON form
 * (`undefined`) with a `ValueEncodingError`.
 * @internal
 */
export function toJsonBytes(ctx: ValueCodecContext, value: unknown, type: string): Buffer {
  const fix =
    'Fix: store plain data (objects, arrays, strings, finite numbers, booleans, null); convert bigints to strings';
  let problem: string | undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (key, v: unknown) => {
      problem ??= unsupported(key, v);
      return problem === undefined ? v : undefined;
    });
  } catch (err) {
    problem = `cannot be serialized (${(err instanceof Error ? err.message : String(err)).split('\n')[0]})`;
  }
  if (problem !== undefined) throw valueError(ctx, value, `is not a valid ${type} value: it ${problem}. ${fix}`);
  if (text === undefined) throw valueError(ctx, value, `is not a valid ${type} value: it has no JSON form. ${fix}`);
  return Buffer.from(text, 'utf8');
}

/**
 * Parses stored UTF-8 JSON; malformed bytes throw `ValueEncodingError`.
 * @internal
 */
export function parseJsonBytes(ctx: ValueCodecContext, bytes: Buffer, type: string): unknown {
  const text = decodeUtf8Strict(bytes);
  try {
    if (text !== undefined) return JSON.parse(text) as unknown;
  } catch {
    // Reported below with the bytes.
  }
  throw valueError(
    ctx,
    bytes,
    `is not a valid stored ${type} value: not UTF-8 JSON. Fix: check the column's declared type matches how the cell was written`,
  );
}

/**
 * `json` cells: UTF-8 JSON text.
 * @internal
 */
export function createJsonValueCodec(ctx: ValueCodecContext): ValueCodec {
  return Object.freeze({
    type: 'json',
    encode: (value: unknown): Buffer => toJsonBytes(ctx, value, 'json'),
    decode: (bytes: Buffer): unknown => parseJsonBytes(ctx, bytes, 'json'),
  } as const);
}
