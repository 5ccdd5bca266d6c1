/**
 * Seed 002, key salting: `event#<source>#<timestamp>` keys prefixed with
 * `int(md5(key)) % N`, written in bulk, scanned in parallel over every bucket
 * and merged back in key order, with the seed's bucket-evenness check.
 */
import { createHash } from 'node:crypto';
import { bucketCounts, evenness, type Evenness } from '../../src/tools.js';
import { range } from '../../src/index.js';
import { uniqueTableId } from '../../src/testing/index.js';
import { runScenario } from '../shared/run-scenario.js';
import { isAscending, type ScenarioReport } from '../shared/scenario-report.js';
import type { ScenarioOptions } from '../shared/scenario-options.js';
import { bucketCensus } from './bucket-census.js';
import { DEFAULT_BUCKETS, eventEntity, type SaltedEvent } from './event.entity.js';

/** Options of {@link run}. @example `{ emulatorHost: '127.0.0.1:8086', instance: 'examples', events: 2000 }` */
export type SaltedEventsOptions = ScenarioOptions & {
  /** Events written. Default 10,000. */
  readonly events?: number;
  /** Salt buckets. Default 10. */
  readonly buckets?: number;
};

/** What the run observed. */
export interface SaltedEventsData {
  readonly written: number;
  readonly sampleKey: string;
  readonly countsFromKeys: ReadonlyMap<number, number>;
  readonly countsInTable: ReadonlyMap<number, number>;
  readonly evenness: Evenness;
  readonly scanned: number;
  readonly scanOrdered: boolean;
  readonly rangeRows: number;
  readonly rangeExpected: number;
  readonly rangeSources: number;
}

const SOURCES = ['web-server', 'mobile-api', 'batch-job'];
const BASE = Date.UTC(2026, 1, 17, 10, 0, 0);
const RANGE = { source: 'web-server', from: new Date(BASE), to: new Date(BASE + 10 * 60_000) };

/** Logical key of an event (no escaping needed for these sources). */
const logicalKey = (e: SaltedEvent): string => `event#${e.source}#${e.timestamp.toISOString()}`;

/** Seed 002's Python recipe, recomputed independently: `f"{int(md5(key).hexdigest(), 16) % n:02d}#{key}"`. */
function seedSaltedKey(key: string, buckets: number): string {
  const bucket = BigInt(`0x${createHash('md5').update(key, 'utf8').digest('hex')}`) % BigInt(buckets);
  return `${String(bucket).padStart(2, '0')}#${key}`;
}

/**
 * Writes `events` salted events, checks every key against seed 002's recipe,
 * counts rows per bucket (from the keys and in the table), scans the whole
 * table and one source's ten minutes in key order.
 *
 * @example
 * ```ts
 * const report = await run({ emulatorHost: emulator.host, instance: 'examples', events: 2000 });
 * ```
 */
export async function run(options: SaltedEventsOptions): Promise<ScenarioReport & { readonly data: SaltedEventsData }> {
  const total = options.events ?? 10_000;
  const buckets = options.buckets ?? DEFAULT_BUCKETS;
  const Event = eventEntity(options.table ?? uniqueTableId('salted-events'), buckets);
  const spec = {
    scenario: 'salted-events',
    title: `Salted events (seed 002): ${total} events over ${buckets} md5 buckets`,
    entities: [Event],
  };
  return runScenario(options, spec, async (mapper, out) => {
    const repo = mapper.getRepository(Event);
    const salt = repo.schema.key.salt!;
    const events = Array.from({ length: total }, (_, i) =>
      repo.create({
        source: SOURCES[i % SOURCES.length] as string,
        timestamp: new Date(BASE + i * 1000),
        type: 'page_view',
        payload: { page: '/home', user: `user-${i}` },
      }),
    );

    const sampleKey = repo.compileSave(events[1] ?? events[0]!).rowKeyText;
    out.show(`compileSave(event).rowKeyText = ${sampleKey}`);
    const mismatches = events.filter(
      (e) => repo.compileSave(e).rowKeyText !== seedSaltedKey(logicalKey(e), buckets),
    ).length;
    out.check(
      `every key is seed 002's int(md5(key)) % ${buckets} + "#" + key`,
      mismatches === 0,
      `${total - mismatches}/${total} keys match`,
    );

    const started = performance.now();
    const { written } = await repo.saveMany(events, { batchSize: 500, concurrency: 2 });
    out.check(
      `saveMany wrote every event`,
      written === total,
      `${written} rows in ${Math.round(performance.now() - started)} ms`,
    );

    const countsFromKeys = bucketCounts(salt, events.map(logicalKey));
    const { counts: countsInTable, firstKeys } = await bucketCensus(mapper, repo);
    const even = evenness(countsInTable);
    const predicted = evenness(countsFromKeys);
    out.show(`rows per bucket: ${[...countsInTable].map(([b, n]) => `${String(b).padStart(2, '0')}:${n}`).join(' ')}`);
    out.show(`stored order starts in bucket 00: ${firstKeys.join(', ')}`);
    const same =
      [...countsFromKeys].every(([b, n]) => countsInTable.get(b) === n) && countsInTable.size === countsFromKeys.size;
    out.check(
      'rows per bucket counted in the table (one read per planScan source) = bucketCounts() over the keys',
      same,
      `${countsInTable.size} buckets`,
    );
    out.check(
      'buckets are even: max/min below 1.5 (the seed\'s "good enough")',
      even.ratio < 1.5,
      `in the table: min ${even.min}, max ${even.max}, ratio ${even.ratio.toFixed(2)}; from the keys: ratio ${predicted.ratio.toFixed(2)}`,
    );

    const scannedKeys: string[] = [];
    for await (const e of repo.iterate()) scannedKeys.push(logicalKey(e));
    const scanOrdered = isAscending(scannedKeys);
    out.show(`merged scan starts: ${scannedKeys.slice(0, 2).join(', ')}`);
    out.check(
      `whole-table scan reads ${buckets} buckets in parallel and merges them in logical key order`,
      scannedKeys.length === total && scanOrdered,
      `${scannedKeys.length} rows, ordered: ${scanOrdered}`,
    );

    const query = { where: { source: RANGE.source, timestamp: range({ gte: RANGE.from, lt: RANGE.to }) } };
    const rangeSources = repo.planScan(query).sources.length;
    const rangeExpected = events.filter(
      (e) => e.source === RANGE.source && e.timestamp >= RANGE.from && e.timestamp < RANGE.to,
    ).length;
    const inRange: SaltedEvent[] = [];
    for await (const e of repo.iterate(query)) inRange.push(e);
    const rangeOk =
      inRange.length === rangeExpected &&
      isAscending(inRange.map(logicalKey)) &&
      inRange.every((e) => e.source === RANGE.source);
    out.check(
      `range scan of ${RANGE.source}'s first 10 minutes: exactly the expected rows, in order`,
      rangeOk,
      `${inRange.length} of ${rangeExpected} rows from ${rangeSources} bucket ranges`,
    );

    return {
      written,
      sampleKey,
      countsFromKeys,
      countsInTable,
      evenness: even,
      scanned: scannedKeys.length,
      scanOrdered,
      rangeRows: inRange.length,
      rangeExpected,
      rangeSources,
    };
  });
}
