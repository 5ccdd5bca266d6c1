import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import type { SaltSchema } from '../metadata/entity-schema.js';

/**
 * The text hashed into the bucket: the first `prefixLength` encoded key
 * components joined by the key separator, without a trailing separator. With
 * the default `on` this is the whole logical key. `entity` names the class in
 * error messages.
 * @internal
 */
export function saltInput(
  salt: SaltSchema,
  encodedComponents: readonly string[],
  keySeparator: string,
  entity = 'Salted entity',
): string {
  if (encodedComponents.length < salt.prefixLength) {
    throw new ValidationError(
      `${entity}: the salt bucket is computed from ${salt.on.join(', ')}, but only ${encodedComponents.length} of the ` +
        `${salt.prefixLength} leading key components were given. Fix: pass ${salt.on.join(', ')} to address one row.`,
      { entity, on: salt.on, given: encodedComponents.length },
    );
  }
  return encodedComponents.slice(0, salt.prefixLength).join(keySeparator);
}

/**
 * The salt segment of one bucket: the bucket zero-padded to `width` digits
 * (a leading `-` for the negative buckets of the signed preset), then the salt
 * separator.
 * @internal
 */
export function bucketText(salt: SaltSchema, bucket: number): string {
  const low = salt.allBuckets[0] ?? 0;
  if (!Number.isInteger(bucket) || bucket < low || bucket > salt.buckets - 1) {
    throw new ValidationError(
      `Salt bucket ${preview(bucket)} is not one of ${low}..${salt.buckets - 1}. Fix: pass a bucket from salt.allBuckets.`,
      { bucket: preview(bucket) },
    );
  }
  return `${bucket < 0 ? '-' : ''}${String(Math.abs(bucket)).padStart(salt.width, '0')}${salt.separator}`;
}

/**
 * The salt segment that starts a row's physical key. Empty for a row older
 * than `since.from` (forward-only migration: old rows stay unsalted); the
 * `since` component's value is then required. `entity` names the class in
 * error messages.
 * @internal
 */
export function saltSegment(
  salt: SaltSchema,
  encodedComponents: readonly string[],
  keySeparator: string,
  sinceValue?: Date,
  entity = 'Salted entity',
): string {
  if (salt.since !== undefined) {
    if (!(sinceValue instanceof Date) || Number.isNaN(sinceValue.getTime())) {
      throw new ValidationError(
        `${entity}.${salt.since.component}: ${preview(sinceValue)} is not a valid Date, and @Salt since needs it to tell salted rows ` +
          `from the unsalted rows written before ${salt.since.from.toISOString()}. Fix: pass ${salt.since.component} as a valid Date.`,
        { entity, property: salt.since.component, value: preview(sinceValue) },
      );
    }
    if (sinceValue.getTime() < salt.since.from.getTime()) return '';
  }
  return bucketText(salt, salt.bucketOf(saltInput(salt, encodedComponents, keySeparator, entity)));
}

/**
 * Recognises a leading salt segment in canonical form (same padding, no `-0`,
 * bucket in range). `undefined` when the key does not start with one. An
 * unsalted key can look salted (`12#…`); with `since`, check the rest's bucket.
 * @internal
 */
export function parseSaltSegment(
  salt: SaltSchema,
  physicalKeyText: string,
): { bucket: number; rest: string } | undefined {
  const low = salt.allBuckets[0] ?? 0;
  const signed = low < 0 && physicalKeyText.startsWith('-');
  const start = signed ? 1 : 0;
  let end = start;
  let magnitude = 0;
  while (end < physicalKeyText.length && isDigit(physicalKeyText.charCodeAt(end))) {
    magnitude = magnitude * 10 + (physicalKeyText.charCodeAt(end) - 48);
    end++;
  }
  if (end === start || !physicalKeyText.startsWith(salt.separator, end)) return undefined;
  // A run of digits too long for an exact sum comes out at 2^53 or more, far outside the buckets.
  const bucket = signed ? -magnitude : magnitude;
  if (bucket < low || bucket > salt.buckets - 1) return undefined;
  if (!isCanonicalBucket(salt, end - start, physicalKeyText.charCodeAt(start), signed && magnitude === 0))
    return undefined;
  return { bucket, rest: physicalKeyText.slice(end + salt.separator.length) };
}

/**
 * {@link parseSaltSegment} of a physical key's UTF-8 bytes: the byte length
 * of its salt segment (where the logical key starts), or -1 when the key does
 * not start with a canonical one or the salt separator is not ASCII (then ask
 * `parseSaltSegment` of the text). Reads the same segment as the text would,
 * since its characters are all ASCII.
 * @internal
 */
export function saltSegmentLength(salt: SaltSchema, key: Uint8Array): number {
  const low = salt.allBuckets[0] ?? 0;
  const signed = low < 0 && key[0] === 45;
  const start = signed ? 1 : 0;
  let end = start;
  let magnitude = 0;
  while (end < key.length && isDigit(key[end] as number)) {
    magnitude = magnitude * 10 + ((key[end] as number) - 48);
    end++;
  }
  if (end === start) return -1;
  const separator = salt.separator;
  for (let i = 0; i < separator.length; i++) {
    const code = separator.charCodeAt(i);
    if (code >= 0x80 || key[end + i] !== code) return -1;
  }
  const bucket = signed ? -magnitude : magnitude;
  if (bucket < low || bucket > salt.buckets - 1) return -1;
  return isCanonicalBucket(salt, end - start, key[start] as number, signed && magnitude === 0)
    ? end + separator.length
    : -1;
}

/**
 * Whether bucket digits read from a key are what {@link bucketText} writes for
 * their value: exactly `width` digits, or more without a leading zero (a lone
 * `0` has none), and no `-0`.
 */
function isCanonicalBucket(salt: SaltSchema, digits: number, firstDigit: number, negativeZero: boolean): boolean {
  if (negativeZero) return false;
  return digits === salt.width || (digits > salt.width && (firstDigit !== 48 || digits === 1));
}

/**
 * Salt segments a scan must cover: the one bucket of the fixed components when
 * they span the salt input (bucket pruning), else every bucket in `allBuckets`
 * order. The unsalted layout of `since` is the caller's to add.
 * @internal
 */
export function scanSegments(
  salt: SaltSchema,
  fixedEncodedComponents: readonly string[],
  keySeparator: string,
): string[] {
  if (fixedEncodedComponents.length >= salt.prefixLength) {
    return [bucketText(salt, salt.bucketOf(saltInput(salt, fixedEncodedComponents, keySeparator)))];
  }
  return salt.allBuckets.map((bucket) => bucketText(salt, bucket));
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Spread of rows over buckets: fewest and most rows in a bucket, and
 * `max / min` (`Infinity` when a bucket is empty). Near 1 is even; under 1.5
 * is usually good enough.
 *
 * @example
 * ```ts
 * const e: Evenness = { min: 95, max: 104, ratio: 1.09 };
 * ```
 */
export interface Evenness {
  /** Rows in the emptiest bucket. */
  readonly min: number;
  /** Rows in the fullest bucket. */
  readonly max: number;
  /** `max / min`; `Infinity` when a bucket is empty. */
  readonly ratio: number;
}

/**
 * Rows per bucket for the given salt inputs; every bucket of `allBuckets` is
 * present, empty ones with 0.
 *
 * @example
 * ```ts
 * const counts = bucketCounts(salt, keys.map((k) => saltInput(salt, k, '#')));
 * ```
 */
export function bucketCounts(salt: SaltSchema, inputs: Iterable<string>): Map<number, number> {
  const counts = new Map<number, number>(salt.allBuckets.map((bucket) => [bucket, 0]));
  for (const input of inputs) {
    const bucket = salt.bucketOf(input);
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  return counts;
}

/**
 * Min, max and max/min of per-bucket counts: the check that hash-salted buckets are even (under 1.5 is good).
 *
 * @example
 * ```ts
 * evenness(new Map([[0, 10], [1, 12]])); // { min: 10, max: 12, ratio: 1.2 }
 * ```
 */
export function evenness(counts: ReadonlyMap<number, number>): Evenness {
  if (counts.size === 0) {
    throw new ValidationError(
      'evenness() needs at least one bucket count. Fix: pass the result of bucketCounts(salt, inputs).',
    );
  }
  const values = [...counts.values()];
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { min, max, ratio: min > 0 ? max / min : Infinity };
}
