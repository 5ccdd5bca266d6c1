import { invalidCursor, openCursor, sealCursor } from './cursor.js';

/**
 * Where a paged collection read stopped: every row whose logical key (the key
 * without its salt segment) sorts at or before `lastKey` was delivered (at or
 * after it for `order: 'key-desc'`), `taken` rows of each member with a
 * `limit` among them, and `scope`, the fingerprint of the read it belongs to.
 * @internal
 */
export interface CollectionCursorState {
  readonly lastKey: Buffer;
  /** Rows delivered so far per member name, for the members with a limit. */
  readonly taken: Readonly<Record<string, number>>;
  readonly scope: string;
}

/**
 * A collection read's position as opaque URL-safe text, in the envelope of
 * every scan cursor (base64url of versioned JSON with a checksum that detects
 * edits; no signature: treat it as a position only).
 * @internal
 */
export function encodeCollectionCursor(state: CollectionCursorState): string {
  return sealCursor({ k: 'c', key: state.lastKey.toString('base64'), n: state.taken, s: state.scope });
}

/**
 * Decodes a cursor made by {@link encodeCollectionCursor}. Throws the
 * `ValidationError` of every unusable cursor, saying why.
 * @internal
 */
export function decodeCollectionCursor(text: unknown): CollectionCursorState {
  const payload = openCursor(text);
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
    throw invalidCursor('its payload is not an object');
  const { k, key, n, s, ...rest } = payload as Record<string, unknown>;
  if (k !== 'c' || Object.keys(rest).length > 0) throw invalidCursor('it is no cursor of a collection read');
  if (typeof s !== 'string') throw invalidCursor('its scope is not a string');
  if (typeof key !== 'string' || Buffer.from(key, 'base64').toString('base64') !== key)
    throw invalidCursor('its row key is not canonical base64');
  if (n === null || typeof n !== 'object' || Array.isArray(n)) throw invalidCursor('its counts are not an object');
  const counts = Object.entries(n);
  for (const [member, count] of counts)
    if (!Number.isSafeInteger(count) || (count as number) < 0)
      throw invalidCursor(`its count of ${member} is not a count`);
  return { lastKey: Buffer.from(key, 'base64'), taken: Object.fromEntries(counts) as Record<string, number>, scope: s };
}
