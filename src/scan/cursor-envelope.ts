import { createHash } from 'node:crypto';
import { ValidationError } from '../errors/validation-error.js';

/**
 * The cursor format version this build writes and reads.
 * @internal
 *
 * @example
 * ```ts
 * sealCursor(payload, CURSOR_VERSION);
 * ```
 */
export const CURSOR_VERSION = 1;

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The error for any unusable cursor, with the fix.
 * @internal
 *
 * @example
 * ```ts
 * throw invalidCursor('it is not valid JSON');
 * ```
 */
export function invalidCursor(reason: string): ValidationError {
  return new ValidationError(
    `Invalid scan cursor: ${reason}. Fix: pass back the exact cursor string returned with the previous page, or restart the scan without a cursor.`,
    { argument: 'cursor', reason },
  );
}

/**
 * First 8 bytes (hex) of the SHA-256 of the payload's JSON: detects corrupted
 * or edited cursors. It is not a signature: anyone can build a valid cursor.
 * @internal
 *
 * @example
 * ```ts
 * cursorChecksum({ k: 'o', key: 'AQI=' }); // 16 hex digits
 * ```
 */
export function cursorChecksum(payload: unknown): string {
  return createHash('sha256').update(JSON.stringify(payload)).digest('hex').slice(0, 16);
}

/**
 * Wraps a JSON payload as `base64url({"v":version,"d":payload,"c":checksum})`.
 * @internal
 *
 * @example
 * ```ts
 * const text = sealCursor({ k: 'o', key: 'AQI=' });
 * ```
 */
export function sealCursor(payload: unknown, version: number = CURSOR_VERSION): string {
  const envelope = { v: version, d: payload, c: cursorChecksum(payload) };
  return Buffer.from(JSON.stringify(envelope), 'utf8').toString('base64url');
}

/**
 * Checks the encoding, the version and the checksum of a cursor, and returns
 * its payload (whose shape the caller still has to check).
 * @internal
 *
 * @example
 * ```ts
 * const payload = openCursor(text); // { k: 'o', key: 'AQI=' }
 * ```
 */
export function openCursor(text: unknown): unknown {
  if (typeof text !== 'string' || text.length === 0) throw invalidCursor('expected a non-empty string');
  const bytes = Buffer.from(text, 'base64url');
  if (!BASE64URL.test(text) || bytes.toString('base64url') !== text) throw invalidCursor('it is not base64url text');
  let envelope: unknown;
  try {
    envelope = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw invalidCursor('its content is not JSON');
  }
  if (!isRecord(envelope) || !('v' in envelope) || !('d' in envelope) || typeof envelope['c'] !== 'string') {
    throw invalidCursor('its content is not a cursor envelope');
  }
  if (envelope['v'] !== CURSOR_VERSION) {
    throw invalidCursor(
      `it has format version ${JSON.stringify(envelope['v'])}, and this version of bigtable-mapper reads version ${CURSOR_VERSION}`,
    );
  }
  if (Object.keys(envelope).length !== 3 || envelope['c'] !== cursorChecksum(envelope['d'])) {
    throw invalidCursor('it was modified or corrupted (checksum mismatch)');
  }
  return envelope['d'];
}

/**
 * Whether a value is a plain JSON object (not an array, not null).
 * @internal
 *
 * @example
 * ```ts
 * isRecord({}); // true
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
