/**
 * Seed 004, reverse timestamps: `<customerId>#<reverse_ts>` keys make the
 * newest events of a customer the first rows of its key range, so "latest N"
 * is a forward scan with a limit: no sort, no over-read.
 */
import { range } from '../../src/index.js';
import { uniqueTableId } from '../../src/testing/index.js';
import { runScenario } from '../shared/run-scenario.js';
import type { ScenarioReport } from '../shared/scenario-report.js';
import type { ScenarioOptions } from '../shared/scenario-options.js';
import { customerEventEntity, type CustomerEvent } from './customer-event.entity.js';
import { NOW, sampleEvents } from './sample-events.js';

/** Options of {@link run}. @example `{ emulatorHost: '127.0.0.1:8086', instance: 'examples', latest: 5 }` */
export type LatestEventsOptions = ScenarioOptions & {
  /** Events per customer. Default 200. */
  readonly perCustomer?: number;
  /** How many latest events to read. Default 5. */
  readonly latest?: number;
};

/** What the run observed. */
export interface LatestEventsData {
  readonly customer: string;
  /** Times returned by the latest-N read, as ISO strings, in returned order. */
  readonly latest: readonly string[];
  /** The N most recent times written for the customer, newest first (computed from the input). */
  readonly expected: readonly string[];
  readonly planSources: number;
  readonly planLimit: number | undefined;
  readonly newestKey: string;
  readonly prefixRows: number;
  readonly lastDay: readonly string[];
  readonly lastDayExpected: readonly string[];
}

const CUSTOMERS = ['c1', 'c2', 'c3', 'c10'];
const CUSTOMER = 'c1';
const REVERSE_BASE = 9_999_999_999_999;

const isDescending = (times: readonly string[]): boolean =>
  times.every((t, i) => i === 0 || (times[i - 1] as string) > t);

/**
 * Writes events for a few customers in shuffled order, then reads the latest
 * N of one customer, and its last 24 hours, newest first.
 *
 * @example
 * ```ts
 * const report = await run({ emulatorHost: emulator.host, instance: 'examples' });
 * ```
 */
export async function run(options: LatestEventsOptions): Promise<ScenarioReport & { readonly data: LatestEventsData }> {
  const perCustomer = options.perCustomer ?? 200;
  const n = options.latest ?? 5;
  const CustomerEvent = customerEventEntity(options.table ?? uniqueTableId('latest-events'));
  const spec = {
    scenario: 'latest-events',
    title: `Latest events (seed 004): <customerId>#<reverse_ts>, latest ${n} of ${perCustomer}`,
    entities: [CustomerEvent],
  };
  return runScenario(options, spec, async (mapper, out) => {
    const repo = mapper.getRepository(CustomerEvent);
    const written = sampleEvents(CUSTOMERS, perCustomer);
    await repo.saveMany(written.map((e) => repo.create(e)));
    const mine = written.filter((e) => e.customerId === CUSTOMER).map((e) => e.at.toISOString());
    const newestFirst = [...mine].sort().reverse();
    const expected = newestFirst.slice(0, n);

    const newest = new Date(expected[0] ?? NOW.toISOString());
    const newestKey = repo.compileSave(repo.create({ customerId: CUSTOMER, at: newest, type: 'x' })).rowKeyText;
    out.show(
      `newest ${CUSTOMER} event ${newest.toISOString()} has key ${newestKey} (9999999999999 − ${newest.getTime()})`,
    );
    out.check(
      'the time part of the key is 9999999999999 − epoch ms',
      newestKey === `${CUSTOMER}#${REVERSE_BASE - newest.getTime()}`,
    );

    const query = { where: { customerId: CUSTOMER }, limit: n };
    const plan = repo.planScan(query);
    out.show(
      `planScan({ where: { customerId: '${CUSTOMER}' }, limit: ${n} }): ${plan.sources.length} range, limit ${String(plan.limit)}`,
    );
    const latest: string[] = [];
    for await (const e of repo.iterate(query)) latest.push(e.at.toISOString());
    out.show(`latest ${n}: ${latest.join(', ')}`);
    out.check(
      `the first ${n} rows are the ${n} most recent events, newest first (events were written shuffled; the read does not sort)`,
      JSON.stringify(latest) === JSON.stringify(expected) && isDescending(latest),
      `${latest.length} rows`,
    );
    out.check(
      `one key range with limit ${n} (sent as ReadRows rows_limit): no over-read, no sort`,
      plan.sources.length === 1 && plan.limit === n,
    );

    const mineRead: CustomerEvent[] = [];
    for await (const e of repo.iterate({ where: { customerId: CUSTOMER } })) mineRead.push(e);
    const prefixOk =
      mineRead.length === perCustomer &&
      mineRead.every((e) => e.customerId === CUSTOMER) &&
      isDescending(mineRead.map((e) => e.at.toISOString()));
    out.check(
      `the whole ${CUSTOMER} range is newest first and never includes c10`,
      prefixOk,
      `${mineRead.length} rows`,
    );

    const since = new Date(NOW.getTime() - 86_400_000);
    const lastDay: string[] = [];
    for await (const e of repo.iterate({ where: { customerId: CUSTOMER, at: range({ gte: since }) } }))
      lastDay.push(e.at.toISOString());
    const lastDayExpected = newestFirst.filter((t) => t >= since.toISOString());
    out.check(
      `"since yesterday" (at ≥ ${since.toISOString()}) returns exactly that day, newest first`,
      JSON.stringify(lastDay) === JSON.stringify(lastDayExpected),
      `${lastDay.length} rows`,
    );

    return {
      customer: CUSTOMER,
      latest,
      expected,
      planSources: plan.sources.length,
      planLimit: plan.limit,
      newestKey,
      prefixRows: mineRead.length,
      lastDay,
      lastDayExpected,
    };
  });
}
