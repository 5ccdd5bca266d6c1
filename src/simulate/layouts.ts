import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import type { KeySchema } from '../key/logical-key.js';
import { compileSalt } from '../metadata/compile-salt.js';
import type { SaltHashPreset } from '../model/declarations.js';

/**
 * A key layout to simulate beside the declared one: the same key parts with
 * no salt (`salt: null`), or salted with `buckets` over the whole key or, with
 * `on`, over a leading run of its properties (a partial-key salt).
 *
 * @example
 * ```ts
 * const alternatives: LayoutAlternative[] = [
 *   { salt: null },
 *   { salt: { buckets: 8 } },
 *   { salt: { buckets: 8, on: ['userId'] }, label: 'salt userId only' },
 * ];
 * ```
 */
export interface LayoutAlternative {
  /** Name in the report. Default: derived from the salt, e.g. `salt 8` or `salt 8 on userId`. */
  readonly label?: string;
  /** `null` for no salt; otherwise the `@Salt` options tried. */
  readonly salt: null | {
    /** Number of buckets (1–1000). */
    readonly buckets: number;
    /** Leading key properties hashed. Default: the whole key. */
    readonly on?: readonly string[];
    /** Hash preset. Default: the declared preset, or `md5`. */
    readonly hash?: SaltHashPreset;
  };
}

/** A layout to simulate: its report label and the key schema its rows are encoded with. @internal */
export interface Layout {
  readonly label: string;
  readonly schema: KeySchema;
}

const MAX_ALTERNATIVES = 16;

/**
 * The declared layout, then each alternative. An alternative is the declared
 * key plan with its salt replaced: the salt is compiled by the same pass as
 * `@Salt` (`compileSalt`), so a bad alternative fails with the same
 * `MetadataError` a bad decorator would, and keys are encoded by the same
 * `encodeRowKey` as the library's writes. Every other part of the key plan
 * (components, codecs, separator) is shared with the declared schema; a
 * forward-only `since` is not carried over, since an alternative describes
 * the table as if it had always been laid out that way.
 * @internal
 */
export function layoutsOf(schema: KeySchema, alternatives: readonly LayoutAlternative[] = []): Layout[] {
  if (!Array.isArray(alternatives) || alternatives.length > MAX_ALTERNATIVES) {
    throw new ValidationError(
      `simulateHotspots alternatives must be an array of at most ${MAX_ALTERNATIVES} layouts, got ${preview(alternatives)}. Fix: pass fewer alternatives.`,
      { entity: schema.name },
    );
  }
  const declared: Layout = { label: 'declared', schema };
  return [declared, ...alternatives.map((alternative, index) => derive(schema, alternative, index))];
}

function derive(schema: KeySchema, alternative: LayoutAlternative, index: number): Layout {
  if (alternative === null || typeof alternative !== 'object' || !('salt' in alternative)) {
    throw new ValidationError(
      `simulateHotspots alternatives[${index}] must be { salt: null } or { salt: { buckets } }, got ${preview(alternative)}. Fix: give the salt to try.`,
      { entity: schema.name, index },
    );
  }
  const { salt } = alternative;
  const key = schema.key;
  const declaredHash = key.salt?.hash;
  const compiled =
    salt === null
      ? undefined
      : compileSalt(
          schema.name,
          {
            buckets: salt.buckets,
            ...(salt.on === undefined ? {} : { on: [...salt.on] }),
            hash: salt.hash ?? (declaredHash === undefined || declaredHash === 'custom' ? 'md5' : declaredHash),
          },
          key.components,
          key.separator,
        );
  const label =
    typeof alternative.label === 'string' && alternative.label !== ''
      ? alternative.label.slice(0, 100)
      : defaultLabel(salt);
  return { label, schema: { name: schema.name, key: Object.freeze({ ...key, salt: compiled }) } };
}

function defaultLabel(salt: LayoutAlternative['salt']): string {
  if (salt === null) return 'no salt';
  return salt.on === undefined ? `salt ${salt.buckets}` : `salt ${salt.buckets} on ${salt.on.join(', ')}`;
}
