import { resolveSaltHash } from '../codec/hash-presets.js';
import type { KeyComponentSchema, SaltSchema } from '../metadata/entity-schema.js';
import { bucketCounts, evenness, saltInput, type Evenness } from '../key/salt.js';
import type { LintRule } from './lint-finding.js';

/** The evenness verdict: a max/min ratio of rows per bucket under this is good enough. */
const EVEN_ENOUGH = 1.5;
/** Most distinct salt inputs enumerated to measure a small domain exactly. */
const MAX_ENUMERATED = 100_000;
/** The sample the Java `hashCode` rules measure on: sequential ids `00000000` … `00999999`. */
const SEQUENTIAL_IDS = 1_000_000;
const SEQUENTIAL_ID_DIGITS = 8;

const HASHING_PRINCIPLE =
  'Hash-salted buckets must be even: the bucket is hash(key) mod N, and the spread, max/min rows per bucket, should ' +
  'stay under 1.5; a hash whose structure follows N (Java hashCode() mod a power of two or a multiple of 31) bunches keys.';

/**
 * Salting on components with too few distinct values to fill the buckets.
 * What is known statically: literals have one value and a `uint` part of
 * width w has 10^w; strings, timestamps and signed numbers are treated as
 * unbounded. A small domain is enumerated and hashed exactly.
 * @internal
 */
export const saltFewValues: LintRule = {
  id: 'salt-few-values',
  principle:
    'Salt over many values: hash-salted buckets spread sequential writes, turning one hotspot into N of strength 1/N, ' +
    'only when the salted key parts take many more values than N; check max/min rows per bucket.',
  check(schema) {
    const salt = schema.key.salt;
    if (salt === undefined) return [];
    const hashed = schema.key.components.slice(0, salt.prefixLength);
    const domains = hashed.map(componentValues);
    if (domains.some((d) => d === undefined)) return [];
    const values = domains as string[][];
    const size = values.reduce((n, d) => n * d.length, 1);
    if (size > MAX_ENUMERATED) return [];
    const spread = evenness(bucketCounts(salt, inputsOf(salt, values, schema.key.separator)));
    const buckets = salt.allBuckets.length;
    const empty = size < buckets;
    if (!empty && spread.ratio < EVEN_ENOUGH) return [];
    const on = salt.on.join(', ');
    return [
      {
        severity: empty ? 'error' : 'warning',
        property: salt.on[salt.on.length - 1],
        message:
          `${schema.name}: @Salt hashes ${on}, which can take only ${size} distinct values for ${buckets} buckets` +
          (empty ? `, so at least ${buckets - size} buckets stay empty` : '') +
          `; hashing every one of them gives ${describe(spread)} rows per bucket (under ${EVEN_ENOUGH} is good enough)`,
        fix: `salt on more of the key, e.g. @Salt({ buckets: ${salt.buckets} }) to hash the whole key, or widen the part's domain`,
      },
    ];
  },
};

/**
 * A Java `hashCode` preset with a power-of-two bucket count: 31 ≡ −1 (mod 32),
 * so the bucket is an alternating sum of the characters and sequential keys
 * bunch. Measured on a million sequential ids for the entity's bucket count.
 * @internal
 */
export const javaHashcodePowerOfTwo: LintRule = {
  id: 'java-hashcode-power-of-two',
  principle: HASHING_PRINCIPLE,
  check(schema) {
    const salt = schema.key.salt;
    if (salt === undefined || !isJavaHash(salt) || !isPowerOfTwo(salt.buckets)) return [];
    const spread = sequentialIdSpread(salt);
    const uneven = spread.ratio >= EVEN_ENOUGH;
    return [
      {
        severity: uneven ? 'error' : 'info',
        message:
          `${schema.name}: @Salt hash '${salt.hash}' with ${salt.buckets} buckets, a power of two: 31 ≡ −1 modulo 2^k up ` +
          `to 32, so the bucket follows an alternating sum of the key's characters and similar keys bunch. Measured on ` +
          `${SEQUENTIAL_IDS.toLocaleString('en')} sequential ${SEQUENTIAL_ID_DIGITS}-digit ids: ${describe(spread)} rows per ` +
          `bucket at ${salt.buckets} buckets (6.38 at 32)` +
          (uneven ? '' : '; even here, but the structure stays and other key sets can bunch'),
        fix:
          `use @Salt({ buckets: ${salt.buckets}, hash: 'md5' }) for new tables, or a bucket count that is not a power ` +
          `of two (nor a multiple of 31); keep '${salt.hash}' only to match keys existing Java code writes`,
      },
    ];
  },
};

/**
 * A Java `hashCode` preset with a multiple of 31 buckets: `hashCode() mod 31`
 * is the last character's code mod 31, so the rest of the key is ignored.
 * @internal
 */
export const javaHashcodeMultipleOf31: LintRule = {
  id: 'java-hashcode-multiple-of-31',
  principle: HASHING_PRINCIPLE,
  check(schema) {
    const salt = schema.key.salt;
    if (salt === undefined || !isJavaHash(salt) || salt.buckets % 31 !== 0) return [];
    const spread = sequentialIdSpread(salt);
    return [
      {
        severity: 'error',
        message:
          `${schema.name}: @Salt hash '${salt.hash}' with ${salt.buckets} buckets, a multiple of 31: hashCode() mod 31 is ` +
          `the last character's code mod 31, so most of the key never reaches the bucket. Measured on ` +
          `${SEQUENTIAL_IDS.toLocaleString('en')} sequential ${SEQUENTIAL_ID_DIGITS}-digit ids: ${describe(spread)} rows per bucket`,
        fix: `use @Salt({ buckets: ${salt.buckets}, hash: 'md5' }), or a bucket count that is not a multiple of 31`,
      },
    ];
  },
};

function isJavaHash(salt: SaltSchema): boolean {
  return salt.hash === 'java-string-hashcode' || salt.hash === 'java-string-hashcode-signed';
}

function isPowerOfTwo(n: number): boolean {
  return n >= 2 && (n & (n - 1)) === 0;
}

/** `min/max = ratio`, with an empty bucket said so. */
function describe(spread: Evenness): string {
  const ratio = Number.isFinite(spread.ratio) ? spread.ratio.toFixed(2) : '∞ (a bucket got none)';
  return `min ${spread.min}, max ${spread.max}, max/min ${ratio}`;
}

/** The encoded values a component can take, when few enough to list; `undefined` when unknown or too many. */
function componentValues(component: KeyComponentSchema): string[] | undefined {
  if (component.kind === 'literal') return [component.literal];
  const { type, width } = component.codec;
  if (type !== 'uint' || width === undefined || 10 ** width > MAX_ENUMERATED) return undefined;
  return Array.from({ length: 10 ** width }, (_, i) => component.codec.encode(i));
}

/** Every salt input of the cartesian product of component values. */
function* inputsOf(salt: SaltSchema, values: readonly string[][], separator: string): Generator<string> {
  const indexes = values.map(() => 0);
  for (;;) {
    yield saltInput(
      salt,
      values.map((d, i) => d[indexes[i] as number] as string),
      separator,
    );
    let i = values.length - 1;
    while (i >= 0 && (indexes[i] as number) + 1 === (values[i] as string[]).length) indexes[i--] = 0;
    if (i < 0) return;
    indexes[i] = (indexes[i] as number) + 1;
  }
}

/** Measured spreads by bucket count; pure, so computed once per count (at most 1,000 of them). */
const measured = new Map<number, Evenness>();

/**
 * Rows per bucket when `Math.floorMod(hashCode(), buckets)` buckets the
 * sequential ids `00000000` … `00999999`: the sample behind the 6.4× reported at 32 buckets.
 */
function sequentialIdSpread(salt: SaltSchema): Evenness {
  const cached = measured.get(salt.buckets);
  if (cached !== undefined) return cached;
  // The unsigned residue for both presets: the signed one's sign split is a separate, known 2× (the signed preset's scheme).
  const hash = resolveSaltHash('lint', 'java-string-hashcode', salt.buckets);
  const counts = new Map<number, number>(hash.allBuckets.map((b) => [b, 0]));
  for (let i = 0; i < SEQUENTIAL_IDS; i++) {
    const bucket = hash.bucketOf(String(i).padStart(SEQUENTIAL_ID_DIGITS, '0'));
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  const spread = evenness(counts);
  measured.set(salt.buckets, spread);
  return spread;
}
