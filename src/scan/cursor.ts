import { invalidCursor, isRecord, openCursor, sealCursor } from './cursor-envelope.js';

/**
 * Position of an ordered (k-way merged) scan: every row whose logical (unsalted)
 * key sorts at or before `lastKey` was delivered. Resuming starts every bucket's
 * range just after that key, exclusive: after `salt(bucket) + lastKey`.
 *
 * @example
 * ```ts
 * const state: OrderedCursorState = { kind: 'ordered', lastKey: Buffer.from('sensor-1#2024') };
 * ```
 */
export interface OrderedCursorState {
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
 * @example
 * ```ts
 * const bucket3: SourceCursorState = { lastKey: Buffer.from('03#sensor-9'), finished: false };
 * ```
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
export interface UnorderedCursorState {
  readonly kind: 'unordered';
  readonly sources: readonly SourceCursorState[];
  /** Optional fingerprint of the query; compare it on resume to reject a cursor of another query. */
  readonly scope?: string;
}

/**
 * Where a paged scan stopped; see {@link encodeCursor} / {@link decodeCursor}.
 *
 * @example
 * ```ts
 * const state: CursorState = { kind: 'ordered', lastKey: lastRow.key };
 * ```
 */
export type CursorState = OrderedCursorState | UnorderedCursorState;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Encodes a cursor as opaque URL-safe text: base64url of a small versioned JSON
 * with keys as base64 and a checksum that detects corruption or edits. The
 * checksum is not a signature: a client can forge a cursor, so treat it as a
 * position only.
 *
 * @example
 * ```ts
 * const next = encodeCursor({ kind: 'ordered', lastKey: lastRow.key }); // 'eyJ2IjoxLC...'
 * ```
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
 * @example
 * ```ts
 * const state = decodeCursor(request.query.cursor); // CursorState
 * ```
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
