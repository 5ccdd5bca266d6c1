import type { KeyComponentSchema } from '../metadata/entity-schema.js';
import { MAX_ROW_KEY_BYTES } from '../key/physical-key.js';
import type { LintDraft, LintedSchema, LintRule } from './lint-finding.js';

type PropertyComponent = Extract<KeyComponentSchema, { kind: 'property' }>;

/** Worst-case UTF-8 bytes per UTF-16 code unit of an escaped string component (`%` → `%25`, BMP characters ≤ 3). */
const BYTES_PER_CODE_UNIT = 3;
/** Key bytes per value byte of a `bytes` component: two hex digits in text keys, at most an escaped pair in ordered-code. */
const BYTES_PER_BYTE = 2;
/** Length of an ISO timestamp component, `YYYY-MM-DDTHH:mm:ss.sssZ`. */
const ISO_LENGTH = 24;

/**
 * A key whose first property is a time or a number, with no salt: new rows
 * keep landing at one end of the key space, on one tablet. A leading boolean
 * splits the key space in two, so at most two tablets share the writes.
 * Strings and bytes (ids, hashes) pass.
 * @internal
 */
export const leadingTimestamp: LintRule = {
  id: 'leading-timestamp',
  principle:
    'Entity id first, time after it: strictly increasing values such as timestamps at the start of the row key send ' +
    'every new row to the same tablet; lead with an identifier that has many values (sensor123#2023-05-01T12:00:00Z, ' +
    'not 2023-05-01T12:00:00Z#sensor123), or let hash-salted buckets spread the sequential writes.',
  check(schema) {
    const salt = schema.key.salt;
    if (salt !== undefined && salt.buckets > 1) return [];
    const first = schema.key.components.find((c): c is PropertyComponent => c.kind === 'property');
    if (first === undefined) return [];
    const { type, descending } = first.codec;
    if (type === 'string' || type === 'bytes') return [];
    const time = type === 'timestamp';
    const literals = schema.key.components.filter((c) => c.kind === 'literal' && c.position < first.position);
    const after = literals.length === 0 ? 'starts with' : 'has, right after its constant prefix,';
    if (type === 'boolean') return [leadingBoolean(schema.name, first, after)];
    const what = time
      ? `${descending ? 'a reversed timestamp' : 'a timestamp'} (${first.property}), so`
      : `a ${type} (${first.property}): if its values are assigned in sequence, like ids or counters,`;
    const end = descending ? 'start' : 'end';
    return [
      {
        severity: time ? 'error' : 'warning',
        property: first.property,
        message:
          `${schema.name}.${first.property}: the row key ${after} ${what} new rows always go to the ${end} of the ` +
          `key space and one tablet takes every write` +
          (descending ? '; reversing the order changes the end, not the hotspot' : ''),
        fix:
          `put an identifier with many values first, e.g. @KeyPart(0, { type: 'string', maxLength: 64 }) deviceId and ` +
          `@KeyPart(${first.position + 1}, …) ${first.property} after it; or salt the key: @Salt({ buckets: 8 })`,
      },
    ];
  },
};

function leadingBoolean(entity: string, first: PropertyComponent, after: string): LintDraft {
  return {
    severity: 'warning',
    property: first.property,
    message:
      `${entity}.${first.property}: the row key ${after} a boolean (${first.property}), which has only two values, so it ` +
      `splits the rows into no more than two key ranges and does nothing to spread the writes`,
    fix:
      `put an identifier with many values first and ${first.property} after it, e.g. @KeyPart(0, { type: 'string', ` +
      `maxLength: 64 }) deviceId and @KeyPart(${first.position + 1}, { type: 'boolean' }) ${first.property}`,
  };
}

/**
 * A string or bytes key part without `maxLength`: nothing stops a value from
 * pushing the row key past Bigtable's 4 KiB limit.
 * @internal
 */
export const unboundedStringKey: LintRule = {
  id: 'unbounded-string-key',
  principle:
    "Short, bounded row keys: the row key is the table's only index and Bigtable's limit is 4 KiB; bound every " +
    'key part and keep long text in columns.',
  check(schema) {
    return stringComponents(schema)
      .filter((c) => c.codec.maxLength === undefined)
      .map((c): LintDraft => ({
        severity: 'warning',
        property: c.property,
        message:
          `${schema.name}.${c.property}: the ${c.codec.type} key part has no maxLength, so one long value can push the row key ` +
          `over Bigtable's ${MAX_ROW_KEY_BYTES}-byte limit and fail the write, and nothing bounds the key's size`,
        fix: `declare the longest value: @KeyPart(${c.position}, { type: '${c.codec.type}', maxLength: ${c.codec.type === 'bytes' ? 32 : 64} }) ${c.property}`,
      }));
  },
};

/**
 * Every component bounded, but the longest possible key is still over 4 KiB.
 * @internal
 */
export const keyTooLong: LintRule = {
  id: 'key-too-long',
  principle: unboundedStringKey.principle,
  check(schema) {
    const strings = stringComponents(schema);
    if (strings.some((c) => c.codec.maxLength === undefined)) return [];
    const bytes = maxKeyBytes(schema);
    if (bytes <= MAX_ROW_KEY_BYTES) return [];
    const longest = [...strings].sort((a, b) => (b.codec.maxLength ?? 0) - (a.codec.maxLength ?? 0))[0];
    return [
      {
        severity: 'error',
        ...(longest === undefined ? {} : { property: longest.property }),
        message:
          `${schema.name}: the longest row key the declarations allow is ${bytes} bytes (each string character may take ` +
          `${BYTES_PER_CODE_UNIT} bytes once encoded), over Bigtable's ${MAX_ROW_KEY_BYTES}-byte limit`,
        fix:
          longest === undefined
            ? 'shorten the literal key parts'
            : `lower maxLength of ${longest.property} (now ${longest.codec.maxLength}) so the sum stays within ${MAX_ROW_KEY_BYTES} bytes`,
      },
    ];
  },
};

/** The key parts a `maxLength` bounds: strings and bytes. */
function stringComponents(schema: LintedSchema): PropertyComponent[] {
  return schema.key.components.filter(
    (c): c is PropertyComponent => c.kind === 'property' && (c.codec.type === 'string' || c.codec.type === 'bytes'),
  );
}

/**
 * The longest physical key, in bytes, the declarations allow: salt segment,
 * components at their widest, and separators. Needs every string bounded.
 */
function maxKeyBytes(schema: LintedSchema): number {
  const { salt, components, separator } = schema.key;
  let bytes = Buffer.byteLength(separator) * Math.max(0, components.length - 1);
  if (salt !== undefined) {
    const digits = Math.max(salt.width, String(salt.buckets - 1).length);
    const sign = (salt.allBuckets[0] ?? 0) < 0 ? 1 : 0;
    bytes += sign + digits + Buffer.byteLength(salt.separator);
  }
  for (const c of components) {
    if (c.kind === 'literal') bytes += Buffer.byteLength(c.literal);
    else if (c.codec.type === 'string') bytes += (c.codec.maxLength ?? Infinity) * BYTES_PER_CODE_UNIT;
    else if (c.codec.type === 'bytes') bytes += (c.codec.maxLength ?? Infinity) * BYTES_PER_BYTE;
    else bytes += c.codec.width ?? ISO_LENGTH;
  }
  return bytes;
}
