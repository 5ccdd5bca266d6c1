import { bucketCounts, encodeRowKey, evenness } from '../../src/tools.js';
import { compileEntity } from '../../src/metadata/compile-entity.js';
import type { SaltHashPreset } from '../../src/model/declarations.js';
import type { BenchContext } from '../context.js';
import { defineEvennessEntity } from '../entities.js';
import { eventKey } from '../dataset.js';
import { round } from '../measure.js';
import type { EvennessResult, EvennessRow } from '../results.js';

/** Presets compared, default first. @example `EVENNESS_PRESETS[0] // 'md5'` */
export const EVENNESS_PRESETS: readonly SaltHashPreset[] = [
  'md5',
  'md5-int32',
  'java-string-hashcode',
  'java-string-hashcode-signed',
];

/** Bucket counts compared. @example `EVENNESS_BUCKETS.includes(16)` */
export const EVENNESS_BUCKETS: readonly number[] = [4, 8, 16, 32];

/** Explains the signed preset's spread: empty prefixes, and max/min over the prefixes that got keys. */
function signedNote(counts: ReadonlyMap<number, number>): string {
  const used = [...counts.values()].filter((c) => c > 0);
  const negative = [...counts].filter(([bucket]) => bucket < 0).reduce((sum, [, c]) => sum + c, 0);
  const over = used.length > 0 ? round(Math.max(...used) / Math.min(...used), 4) : 0;
  const why =
    negative === 0
      ? 'no key hashed negative, so the -(N-1)..-1 prefixes stay empty'
      : 'prefix 0 takes remainder 0 of both signs';
  return `${counts.size - used.length} of ${counts.size} prefixes empty (${why}); max/min over the ${used.length} used prefixes ${over}`;
}

/**
 * Workload 6: seed 002's distribution check with the library's own
 * `bucketCounts` / `evenness`: max/min rows per salt prefix for sequential
 * logical keys `event#<seq, 10 digits>`, for every preset and bucket count.
 * The signed Java preset is measured over its 2N−1 prefixes.
 * @example `const result = bucketEvenness(ctx);`
 */
export function bucketEvenness(ctx: BenchContext): EvennessResult {
  const keys = ctx.options.evennessKeys;
  ctx.log(`evenness: ${keys} sequential keys`);
  const inputs = Array.from({ length: keys }, (_, i) => eventKey(i));
  const rows: EvennessRow[] = [];
  for (const preset of EVENNESS_PRESETS) {
    for (const buckets of EVENNESS_BUCKETS) {
      const schema = compileEntity(defineEvennessEntity(preset, buckets));
      const salt = schema.key.salt;
      if (salt === undefined) throw new Error('evenness entity has no salt');
      if (encodeRowKey(schema, { seq: 1 }).logical !== inputs[1])
        throw new Error('evenness: salt input differs from the logical key');
      const counts = bucketCounts(salt, inputs);
      const spread = evenness(counts);
      const signed = preset === 'java-string-hashcode-signed';
      rows.push({
        preset,
        buckets,
        prefixes: salt.allBuckets.length,
        min: spread.min,
        max: spread.max,
        ratio: Number.isFinite(spread.ratio) ? round(spread.ratio, 4) : null,
        ...(signed ? { note: signedNote(counts) } : {}),
      });
      ctx.log(`  ${preset} x ${buckets}: min ${spread.min}, max ${spread.max}, max/min ${round(spread.ratio, 4)}`);
    }
  }
  return {
    kind: 'evenness',
    id: 'evenness',
    title: `Bucket evenness, ${keys.toLocaleString('en-US')} sequential keys`,
    keys,
    keyPattern: 'event#<seq zero-padded to 10>',
    rows,
  };
}
