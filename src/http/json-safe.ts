import { printableBytes } from '../util/printable-bytes.js';

const MAX_DEPTH = 6;
const MAX_ITEMS = 100;

/**
 * A copy of `value` that `JSON.stringify` writes without throwing or leaking
 * internals: byte arrays as printable text, bigints as decimal strings, Dates
 * as ISO text, errors as their name and message; functions and symbols are
 * left out. Arrays keep at most 100 items and nesting stops at 6 levels (deeper
 * values become `'…'`), so hostile or cyclic details stay bounded.
 * @internal
 * @example
 * ```ts
 * jsonSafe({ row: Buffer.from('a\0'), n: 2n ** 60n }); // { row: 'a\\x00', n: '1152921504606846976' }
 * ```
 */
export function jsonSafe(value: unknown, depth = 0): unknown {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      break;
    default:
      return value;
  }
  if (value === null) return null;
  if (value instanceof Uint8Array) return printableBytes(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => jsonSafe(item, depth + 1) ?? null);
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const safe = jsonSafe(child, depth + 1);
    if (safe !== undefined) copy[key] = safe;
  }
  return copy;
}
