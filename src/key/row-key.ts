import { KeyEncodingError } from '../errors/key-encoding-error.js';

export { encodeKeyComponents, joinLogicalKey, type KeySchema } from './row-key-components.js';
export { decodeLogicalKey } from './row-key-decode.js';
export { logicalKeyRange, prefixEnd, type KeyRangeCondition } from './row-key-range.js';

/**
 * Bigtable's row key size limit in bytes (4 KiB). The emulator does not
 * enforce it, so the mapper checks every key before writing.
 *
 * @example
 * ```ts
 * if (key.length > MAX_ROW_KEY_BYTES) console.warn('too long');
 * ```
 */
export const MAX_ROW_KEY_BYTES = 4096;

/**
 * Throws `KeyEncodingError` when a physical row key is over {@link MAX_ROW_KEY_BYTES}.
 *
 * @example
 * ```ts
 * assertRowKeySize('Reading', Buffer.from('sensor123#2023-05-01T12:00:00.000Z')); // ok
 * assertRowKeySize('Reading', Buffer.alloc(5000, 'a')); // throws KeyEncodingError
 * ```
 */
export function assertRowKeySize(entity: string, key: Buffer): void {
  if (key.length <= MAX_ROW_KEY_BYTES) return;
  throw new KeyEncodingError(
    entity,
    '(row key)',
    key.toString('utf8'),
    `is ${key.length} bytes, over Bigtable's row key limit of ${MAX_ROW_KEY_BYTES} bytes`,
    'shorten the string key parts (or literals) so the whole key, salt included, stays within 4 KiB; keep long text in a column instead',
  );
}
