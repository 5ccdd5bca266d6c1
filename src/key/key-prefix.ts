import type { KeyComponentSchema, SaltSchema } from '../metadata/entity-schema.js';
import { readStructField, type OrderedFieldCodec } from '../codec/ordered-code.js';
import { decodeLogicalKey, type KeySchema } from './logical-key.js';
import { orderedSaltLength, orderedSaltSegment } from './ordered-key.js';
import { parseSaltSegment } from './salt.js';

/**
 * A physical key that is no whole row key but a key prefix, as the bounds of
 * a scan plan are: a salt segment and the leading key parts, each ended by
 * its separator (or terminator); that plus one (the prefix successor, the
 * end of the keys that start with the prefix); or a range bound that stops
 * inside the next key part.
 * @internal
 */
export interface KeyPrefix {
  /** The bucket of the prefix's salt segment; `undefined` when it has none. */
  readonly bucket: number | undefined;
  /** The layout the prefix belongs to, as scan plans name them: the declared salt, an unsalted layout, or the previous salt of an entity being re-salted. */
  readonly layout: 'salted' | 'unsalted' | 'previous';
  /** Key parts (literals included) the prefix holds whole. */
  readonly parts: number;
  /** Key parts of a whole key. */
  readonly of: number;
  /** The values of the whole key properties among them. */
  readonly values: Record<string, unknown>;
  /** True when the key is one past the prefix (its last byte one higher): the first key after every key that starts with the prefix. */
  readonly after: boolean;
  /** The start of the key part after the whole ones, when the bound stops inside it (a range bound on that part). */
  readonly partial?: { readonly part: string; readonly text: string; readonly value: unknown };
}

type Found = Omit<KeyPrefix, 'after' | 'of'>;
type Layout = { readonly name: KeyPrefix['layout']; readonly salt: SaltSchema | undefined };

/**
 * Reads `key` as a key prefix of the entity (see {@link KeyPrefix});
 * `undefined` when it is none. A whole row key is no prefix: decode it with
 * `decodeRowKey` first. Tried in order: the key ends at a key part's end;
 * the key is one past such a prefix; the key stops inside a key part whose
 * codec reads the rest (a range bound).
 * @internal
 */
export function decodeKeyPrefix(schema: KeySchema, key: Uint8Array): KeyPrefix | undefined {
  const bytes = Buffer.from(key);
  const of = schema.key.components.length;
  const asIs = readPrefix(schema, bytes, false);
  if (asIs !== undefined) return { ...asIs, of, after: false };
  const last = bytes.length - 1;
  if (last >= 0 && (bytes[last] as number) > 0) {
    const before = Buffer.from(bytes);
    before[last] = (before[last] as number) - 1;
    const found = readPrefix(schema, before, false);
    if (found !== undefined) return { ...found, of, after: true };
  }
  const partial = readPrefix(schema, bytes, true);
  return partial === undefined ? undefined : { ...partial, of, after: false };
}

/** The salt layouts a key of the entity can be in, the declared one first. */
function layoutsOf(schema: KeySchema): Layout[] {
  const salt = schema.key.salt;
  if (salt === undefined) return [{ name: 'unsalted', salt: undefined }];
  const layouts: Layout[] = [{ name: 'salted', salt }];
  if (salt.previous !== undefined)
    layouts.push(
      salt.previous === null ? { name: 'unsalted', salt: undefined } : { name: 'previous', salt: salt.previous },
    );
  if (salt.since !== undefined) layouts.push({ name: 'unsalted', salt: undefined });
  return layouts;
}

function readPrefix(schema: KeySchema, key: Buffer, partial: boolean): Found | undefined {
  for (const layout of layoutsOf(schema)) {
    const found =
      schema.key.format === 'ordered-code'
        ? orderedPrefix(schema, layout, key)
        : textPrefix(schema, layout, key, partial);
    if (found !== undefined) return found;
  }
  return undefined;
}

function textPrefix(schema: KeySchema, layout: Layout, key: Buffer, partial: boolean): Found | undefined {
  const text = key.toString('utf8');
  let rest = text;
  let bucket: number | undefined;
  if (layout.salt !== undefined) {
    const parsed = parseSaltSegment(layout.salt, text);
    if (parsed === undefined) return undefined;
    ({ bucket, rest } = parsed);
  }
  const logical = partial ? partialParts(schema, rest) : wholeParts(schema, rest);
  return logical === undefined ? undefined : { bucket, layout: layout.name, ...logical };
}

/** Leading key parts that end exactly where `rest` ends: none, or some, each followed by the separator. */
function wholeParts(schema: KeySchema, rest: string): Pick<Found, 'parts' | 'values'> | undefined {
  if (rest === '') return { parts: 0, values: {} };
  const { separator } = schema.key;
  if (!rest.endsWith(separator)) return undefined;
  return leadingParts(schema, rest.slice(0, -separator.length));
}

/** Whole leading key parts, then the start of the next one (which its codec must read). */
function partialParts(schema: KeySchema, rest: string): Pick<Found, 'parts' | 'values' | 'partial'> | undefined {
  const { separator, components } = schema.key;
  const cut = rest.lastIndexOf(separator);
  const whole = cut < 0 ? { parts: 0, values: {} } : leadingParts(schema, rest.slice(0, cut));
  const text = cut < 0 ? rest : rest.slice(cut + separator.length);
  if (whole === undefined || text === '') return undefined;
  // A bound inside the last key part is a whole key (its codec reads any start of it), no prefix.
  const next = components[whole.parts];
  if (next === undefined || next.kind !== 'property' || whole.parts === components.length - 1) return undefined;
  try {
    return { ...whole, partial: { part: next.property, text, value: next.codec.decode(text) } };
  } catch {
    return undefined;
  }
}

/** The most leading key parts (fewer than all) that `body` decodes to. */
function leadingParts(schema: KeySchema, body: string): Pick<Found, 'parts' | 'values'> | undefined {
  const { components } = schema.key;
  for (let parts = components.length - 1; parts >= 1; parts--) {
    const leading: KeySchema = { name: schema.name, key: { ...schema.key, components: components.slice(0, parts) } };
    try {
      return { parts, values: decodeLogicalKey(leading, body) };
    } catch {
      // fewer parts, then
    }
  }
  return undefined;
}

/** An `ordered-code` prefix: the salt field, then whole terminated fields up to the end of the key. */
function orderedPrefix(schema: KeySchema, layout: Layout, key: Buffer): Found | undefined {
  let at = 0;
  let bucket: number | undefined;
  const salt = layout.salt;
  if (salt !== undefined) {
    at = orderedSaltLength(salt, key);
    if (at < 0) return undefined;
    bucket = salt.allBuckets.find((b) => orderedSaltSegment(b).equals(key.subarray(0, at)));
  }
  const { components } = schema.key;
  const values: Record<string, unknown> = {};
  let parts = 0;
  while (at < key.length) {
    const component = components[parts];
    if (component === undefined || parts === components.length - 1) return undefined;
    const field = readStructField(key, at, key.length, isDescending(component), false);
    if (field === undefined) return undefined;
    if (component.kind === 'literal') {
      if (!field.bytes.equals(Buffer.from(component.literal, 'utf8'))) return undefined;
    } else {
      try {
        values[component.property] = (component.codec as OrderedFieldCodec).fromFieldBytes(field.bytes);
      } catch {
        return undefined;
      }
    }
    parts++;
    at = field.next;
  }
  return { bucket, layout: layout.name, parts, values };
}

function isDescending(component: KeyComponentSchema): boolean {
  return component.kind === 'property' && component.codec.descending;
}
