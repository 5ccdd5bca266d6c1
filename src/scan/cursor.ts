import { createHash } from 'node:crypto';
import { ValidationError } from '../errors/errors.js';
import type { KeyRange } from '../model/driver.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import type { ScanSource } from './scan-plan.js';

/**
 * The cursor format version this build writes and reads.
 * @internal
 *
 * @example
 * ```ts
 * sealCursor(payload, CURSOR_VERSION);
 * ```
 */
const CURSOR_VERSION = 1;

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
function cursorChecksum(payload: unknown): string {
  return createHash('sha256').update(JSON.stringify(payload)).digest('hex').slice(0, 16);
}

/**
 * Wraps a JSON payload as `base64url({"v":version,"d":payload,"c":checksum})`.
 * @internal
 *
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
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Position of an ordered (k-way merged) scan: every row whose logical (unsalted)
 * key sorts at or before `lastKey` was delivered. Resuming starts every bucket's
 * range just after that key, exclusive: after `salt(bucket) + lastKey`. For a
 * descending scan (`order: 'key-desc'`) it is every row at or after `lastKey`,
 * and resuming ends every bucket's range just before `salt(bucket) + lastKey`.
 * The direction is part of the query's scope, so a cursor never resumes a scan
 * of the other direction.
 *
 * @example
 * ```ts
 * const state: OrderedCursorState = { kind: 'ordered', lastKey: Buffer.from('sensor-1#2024') };
 * ```
 */
interface OrderedCursorState {
  readonly kind: 'ordered';
  /** Logical key of the last delivered row. */
  readonly lastKey: Buffer;
  /** Optional fingerprint of the query; compare it on resume to reject a cursor of another query. */
  readonly scope?: string;
}

/**
 * Position of one source (key range) of an unordered scan. Resuming skips a
 * finished source, starts a source with a `lastKey` just after that key
 * (exclusive), and reads a source without one from the start of its range.
 *
 */
export interface SourceCursorState {
  /** Row key of the last row delivered from this source, as read from it; `undefined` if none was. */
  readonly lastKey: Buffer | undefined;
  /** The source was read to its end. */
  readonly finished: boolean;
}

/**
 * Position of an unordered scan: one entry per source, in the order of the
 * scan's ranges. Rows read ahead but not delivered are read again on resume.
 *
 * @example
 * ```ts
 * const state: UnorderedCursorState = { kind: 'unordered', sources: [{ lastKey: undefined, finished: true }] };
 * ```
 */
interface UnorderedCursorState {
  readonly kind: 'unordered';
  readonly sources: readonly SourceCursorState[];
  /** Optional fingerprint of the query; compare it on resume to reject a cursor of another query. */
  readonly scope?: string;
}

/**
 * Where a paged scan stopped; see {@link encodeCursor} / {@link decodeCursor}.
 *
 */
export type CursorState = OrderedCursorState | UnorderedCursorState;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Encodes a cursor as opaque URL-safe text: base64url of a small versioned JSON
 * with keys as base64 and a checksum that detects corruption or edits. The
 * checksum is not a signature: a client can forge a cursor, so treat it as a
 * position only.
 *
 */
export function encodeCursor(state: CursorState): string {
  const scope = state.scope === undefined ? {} : { s: state.scope };
  if (state.kind === 'ordered') return sealCursor({ k: 'o', key: state.lastKey.toString('base64'), ...scope });
  const src = state.sources.map((s) => [
    s.lastKey === undefined ? null : s.lastKey.toString('base64'),
    s.finished ? 1 : 0,
  ]);
  return sealCursor({ k: 'u', src, ...scope });
}

/**
 * Decodes a cursor made by {@link encodeCursor}. Throws a `ValidationError`
 * that says why for garbage, a truncated, edited or corrupted cursor, or one
 * written in another format version.
 *
 */
export function decodeCursor(text: string): CursorState {
  const payload = openCursor(text);
  if (!isRecord(payload)) throw invalidCursor('its payload is not an object');
  const scope = decodeScope(payload);
  if (payload['k'] === 'o' && hasOnlyKeys(payload, ['k', 'key', 's'])) {
    return { kind: 'ordered', lastKey: decodeKey(payload['key']), ...scope };
  }
  if (payload['k'] === 'u' && hasOnlyKeys(payload, ['k', 'src', 's']) && Array.isArray(payload['src'])) {
    return { kind: 'unordered', sources: payload['src'].map(decodeSource), ...scope };
  }
  throw invalidCursor('its payload is neither an ordered nor an unordered scan position');
}

function decodeScope(payload: Record<string, unknown>): { scope?: string } {
  const scope = payload['s'];
  if (scope === undefined) return {};
  if (typeof scope !== 'string') throw invalidCursor('its scope is not a string');
  return { scope };
}

function decodeSource(entry: unknown): SourceCursorState {
  if (!Array.isArray(entry) || entry.length !== 2 || (entry[1] !== 0 && entry[1] !== 1)) {
    throw invalidCursor('a source position is malformed');
  }
  return { lastKey: entry[0] === null ? undefined : decodeKey(entry[0]), finished: entry[1] === 1 };
}

function decodeKey(value: unknown): Buffer {
  if (typeof value !== 'string' || !BASE64.test(value)) throw invalidCursor('a row key is not base64');
  const key = Buffer.from(value, 'base64');
  if (key.toString('base64') !== value) throw invalidCursor('a row key is not canonical base64');
  return key;
}

function hasOnlyKeys(record: Record<string, unknown>, allowed: readonly string[]): boolean {
  return Object.keys(record).every((key) => allowed.includes(key));
}

/**
 * Moves every source of a plan past the position a cursor records, dropping
 * sources that are finished or left empty: forward the ranges start after it,
 * for `key-desc` they end before it. Rejects a cursor of another query.
 * @internal
 */
export function applyCursor(
  schema: EntitySchema,
  sources: readonly ScanSource[],
  cursor: string,
  scope: string,
  order: 'key' | 'key-desc' | 'none',
): ScanSource[] {
  const state = decodeCursor(cursor);
  if (state.scope !== scope || state.kind !== (order === 'none' ? 'unordered' : 'ordered')) {
    throw new ValidationError(
      `${schema.name}: this cursor belongs to another query. Fix: resume with the same where, select, versions, asOf or between, and order that produced the cursor`,
      { entity: schema.name },
    );
  }
  if (state.kind === 'ordered') {
    return sources.flatMap((s) => moveSourcePast(s, state.lastKey, order));
  }
  if (state.sources.length !== sources.length) {
    throw new ValidationError(
      `${schema.name}: this cursor was made for ${state.sources.length} key ranges but the query has ${sources.length}. Fix: resume with the same query`,
      { entity: schema.name },
    );
  }
  return sources.flatMap((s) => {
    const position = state.sources[s.id];
    if (position === undefined || position.finished) return [];
    return position.lastKey === undefined ? [s] : startAfter(s, position.lastKey);
  });
}

/**
 * A source of an ordered scan moved past the row of logical key `lastKey` (its salt segment is added):
 * forward its range starts after it, for `key-desc` it ends before it. None when nothing is left.
 * @internal
 */
export function moveSourcePast(source: ScanSource, lastKey: Buffer, order: 'key' | 'key-desc' | 'none'): ScanSource[] {
  const key = Buffer.concat([source.prefix, lastKey]);
  return order === 'key-desc' ? endBefore(source, key) : startAfter(source, key);
}

/** The part of a source's range below `key` (exclusive); none when the range starts at or above it. */
function endBefore(source: ScanSource, key: Buffer): ScanSource[] {
  const { start, end } = source.range;
  if (Buffer.compare(key, start.key) <= 0) return [];
  if (end !== undefined && Buffer.compare(key, end.key) > 0) return [source];
  const range: KeyRange = { start, end: { key, inclusive: false } };
  return [{ ...source, range }];
}

function startAfter(source: ScanSource, key: Buffer): ScanSource[] {
  const { start, end } = source.range;
  if (Buffer.compare(key, start.key) < 0) return [source];
  if (end !== undefined && Buffer.compare(key, end.key) >= 0) return [];
  const range: KeyRange = { start: { key, inclusive: false }, end };
  return [{ ...source, range }];
}
