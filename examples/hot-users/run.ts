/**
 * Seed 003, salting hot users: `userId-site-timestamp` keys salted on
 * `userId-site` only, with Java's signed `hashCode() % 4` prefix, applied
 * forward-only from a cutoff date. Per-user-site scans stay in one bucket;
 * scans read both the old unsalted and the new salted layout, in key order.
 */
import { range } from '../../src/index.js';
import { uniqueTableId } from '../../src/testing/index.js';
import { rawKeys } from '../shared/raw-keys.js';
import { runScenario } from '../shared/run-scenario.js';
import { isAscending, type ScenarioReport } from '../shared/scenario-report.js';
import type { ScenarioOptions } from '../shared/scenario-options.js';
import { activityEntity, CUTOFF, SALT_RANGE, type Activity } from './activity.entity.js';
import { seed003SaltedKey } from './seed-003-key.js';

/** Options of {@link run}. @example `{ emulatorHost: '127.0.0.1:8086', instance: 'examples', rowsPerUserSite: 12 }` */
export type HotUsersOptions = ScenarioOptions & {
  /** Rows per ordinary user and site over the 24 hours around the cutoff. Default 48. */
  readonly rowsPerUserSite?: number;
  /** How many times more rows the hot user writes. Default 10. */
  readonly hotFactor?: number;
};

/** What the run observed. */
export interface HotUsersData {
  readonly rows: number;
  readonly unsaltedOld: number;
  readonly saltedNew: number;
  readonly oldRows: number;
  readonly newRows: number;
  /** Sources of each per-user-site scan after the cutoff (1 each). */
  readonly recentScanSources: readonly number[];
  /** Layouts read by the hot user's all-time scan. */
  readonly hotScanLayouts: readonly string[];
  readonly hotScanRows: number;
  readonly hotScanExpected: number;
  readonly hotScanOrdered: boolean;
  readonly fullScanSources: number;
  readonly fullScanRows: number;
  readonly fullScanOrdered: boolean;
}

const HOT = 'celebrity';
const USERS = [HOT, 'alice', 'user42', 'user7'];
const SITES = ['web', 'app'];
const DAY = 86_400_000;

const logicalKey = (a: Pick<Activity, 'userId' | 'site' | 'at'>): string =>
  `${a.userId}-${a.site}-${String(a.at.getTime()).padStart(13, '0')}`;

/**
 * Writes activity around the cutoff (the hot user `celebrity` writes
 * `hotFactor` times more), checks the stored keys of both layouts against
 * seed 003's code, and scans per user-site and the whole table.
 *
 * @example
 * ```ts
 * const report = await run({ emulatorHost: emulator.host, instance: 'examples' });
 * ```
 */
export async function run(options: HotUsersOptions): Promise<ScenarioReport & { readonly data: HotUsersData }> {
  const perSite = options.rowsPerUserSite ?? 48;
  const hotFactor = options.hotFactor ?? 10;
  const Activity = activityEntity(options.table ?? uniqueTableId('hot-users'));
  const spec = {
    scenario: 'hot-users',
    title: `Hot users (seed 003): partial-key salt over userId-site, ${SALT_RANGE} buckets, salted from ${CUTOFF.toISOString()}`,
    entities: [Activity],
  };
  return runScenario(options, spec, async (mapper, out) => {
    const repo = mapper.getRepository(Activity);
    const rows = USERS.flatMap((userId) =>
      SITES.flatMap((site) => {
        const n = userId === HOT ? perSite * hotFactor : perSite;
        return Array.from({ length: n }, (_, k) =>
          repo.create({
            userId,
            site,
            at: new Date(CUTOFF.getTime() - DAY / 2 + (k * DAY) / n),
            action: `${site}:${k}`,
          }),
        );
      }),
    );
    await repo.saveMany(rows);
    const isOld = (a: Activity): boolean => a.at < CUTOFF;
    const oldRows = rows.filter(isOld);
    const newRows = rows.filter((a) => !isOld(a));

    const stored = new Set(await rawKeys(mapper, repo.schema.table));
    const sample = (a: Activity | undefined): string => (a === undefined ? '-' : repo.compileSave(a).rowKeyText);
    out.show(
      `keys: ${sample(oldRows.find((a) => a.userId === 'user42'))} (before the cutoff, as-is) → ${sample(newRows.find((a) => a.userId === 'user42'))} (from the cutoff, salted)`,
    );
    const unsaltedOld = oldRows.filter((a) => stored.has(logicalKey(a))).length;
    const saltedNew = newRows.filter((a) => stored.has(seed003SaltedKey(logicalKey(a), SALT_RANGE))).length;
    out.check(
      'rows before the cutoff keep their unsalted keys',
      unsaltedOld === oldRows.length && stored.size === rows.length,
      `${unsaltedOld}/${oldRows.length} rows`,
    );
    out.check(
      `rows from the cutoff on are seed 003's rowKeyBase.hashCode() % ${SALT_RANGE} + "-" + rowKey`,
      saltedNew === newRows.length,
      `${saltedNew}/${newRows.length} rows`,
    );

    const recent = USERS.flatMap((userId) =>
      SITES.map((site) => repo.planScan({ where: { userId, site, at: range({ gte: CUTOFF }) } })),
    );
    const recentScanSources = recent.map((p) => p.sources.length);
    out.show(
      `bucket of each user-site: ${recent.map((p, i) => `${USERS[Math.floor(i / SITES.length)]}-${SITES[i % SITES.length]}→${p.sources[0]?.segment}`).join(' ')}`,
    );
    out.check(
      'a per-user-site scan after the cutoff reads one bucket range',
      recentScanSources.every((n) => n === 1),
      `sources: ${recentScanSources.join(',')}`,
    );

    const hotQuery = { where: { userId: HOT, site: 'web' } };
    const hotScanLayouts = repo
      .planScan(hotQuery)
      .sources.map((s) => (s.layout === 'salted' ? `salted "${s.segment}"` : 'unsalted'));
    const hot: Activity[] = [];
    for await (const a of repo.iterate(hotQuery)) hot.push(a);
    const hotScanExpected = rows.filter((a) => a.userId === HOT && a.site === 'web').length;
    const hotScanOrdered = isAscending(hot.map(logicalKey));
    const crosses = hot.some(isOld) && hot.some((a) => !isOld(a));
    out.check(
      `${HOT}-web over all time: its one bucket plus the unsalted layout, merged in time order`,
      hot.length === hotScanExpected && hotScanOrdered && crosses,
      `${hot.length}/${hotScanExpected} rows from ${hotScanLayouts.join(' + ')}`,
    );

    const fullScanSources = repo.planScan().sources.length;
    const all: string[] = [];
    for await (const a of repo.iterate()) all.push(logicalKey(a));
    const fullScanOrdered = isAscending(all);
    out.check(
      `whole-table scan reads the ${2 * SALT_RANGE - 1} signed prefixes and the unsalted layout, merged in key order`,
      all.length === rows.length && fullScanOrdered && fullScanSources === 2 * SALT_RANGE,
      `${all.length} rows from ${fullScanSources} ranges`,
    );

    const [oldOne, newOne] = [oldRows[0], newRows[0]];
    const found =
      oldOne && newOne
        ? await repo.findMany([oldOne, newOne].map(({ userId, site, at }) => ({ userId, site, at })))
        : [];
    out.check('point reads find a row of each layout', found.length === 2 && found.every((f) => f !== undefined));

    return {
      rows: rows.length,
      unsaltedOld,
      saltedNew,
      oldRows: oldRows.length,
      newRows: newRows.length,
      recentScanSources,
      hotScanLayouts,
      hotScanRows: hot.length,
      hotScanExpected,
      hotScanOrdered,
      fullScanSources,
      fullScanRows: all.length,
      fullScanOrdered,
    };
  });
}
