import { COMPILED } from '../metadata/entity-schema.js';
import { decodeLogicalKey, type KeySchema } from './logical-key.js';
import { tryDecodeSalted } from './physical-key.js';
import { parseSaltSegment } from './salt.js';

/**
 * While an entity is re-salted (`@Salt({ previous })`), the same schema with
 * the previous layout as its salt (none when it was unsalted): every key
 * function of `key/` then encodes and decodes old-layout keys. `undefined`
 * when no previous layout is declared.
 * @internal
 */
export function previousLayout(schema: KeySchema): KeySchema | undefined {
  const previous = schema.key.salt?.previous;
  if (previous === undefined) return undefined;
  // The compile pass derives it once; a key plan built by hand (tests, tools) gets it here.
  const key = schema.key[COMPILED]?.previous ?? Object.freeze({ ...schema.key, salt: previous ?? undefined });
  return { name: schema.name, key };
}

/**
 * Which layout of a re-salted entity a physical key belongs to: `current`
 * when its salt segment is the bucket its own key hashes to in the declared
 * layout, else `previous` when it is a key of the previous layout, else
 * `undefined` (not this entity's key). A key valid in both (same segment
 * text in both layouts, or an old unsalted key that reads as a salted one)
 * counts as `current`: it is already where it belongs.
 * @internal
 */
export function layoutOfKey(schema: KeySchema, text: string): 'current' | 'previous' | undefined {
  const salt = schema.key.salt;
  if (salt === undefined) return 'current';
  const parsed = parseSaltSegment(salt, text);
  if (parsed !== undefined && tryDecodeSalted(schema, salt, parsed) !== undefined) return 'current';
  const previous = previousLayout(schema);
  if (previous === undefined) return undefined;
  const old = previous.key.salt;
  if (old === undefined) return decodes(previous, text) ? 'previous' : undefined;
  const oldParsed = parseSaltSegment(old, text);
  return oldParsed !== undefined && tryDecodeSalted(previous, old, oldParsed) !== undefined ? 'previous' : undefined;
}

function decodes(schema: KeySchema, text: string): boolean {
  try {
    decodeLogicalKey(schema, text);
    return true;
  } catch {
    return false;
  }
}
