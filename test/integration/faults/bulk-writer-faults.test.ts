import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, BulkWriter, DriverError, type Repository, type WriteOutcome } from '../../../src/index.js';
import { checkBulkWriteOptions } from '../../../src/write/bulk-writer.js';
import { deadlineSignal } from '../../../src/util/operation-signal.js';
import { emulatorHost, testInstanceId } from '../../support/emulator.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { closeMapper, makeEntities, openMapper, rawKeys } from '../../fixtures/entities.js';

/**
 * The BulkWriter through the fault proxy: resets and stalls during a run, a
 * backend that dies, close() while adds wait on a stalled backend, and a
 * producer that throws. Each time every entity's outcome is exact: the table
 * holds every `persisted` one, and nothing that was never sent. (The
 * 1,000,000-row run is in the soak tier: test/soak/bulk-writer-soak.test.ts.)
 */

const E = makeEntities('bwfaults');
type Item = InstanceType<typeof E.Item>;

let proxy: FaultProxy;
let proxied: BigtableMapper;
let direct: BigtableMapper;
let items: Repository<Item>;

beforeAll(async () => {
  proxy = await startFaultProxy(emulatorHost());
  direct = openMapper([E.Item]);
  await direct.sync();
  proxied = new BigtableMapper({ emulatorHost: proxy.host, instance: testInstanceId, entities: [E.Item] });
  items = proxied.getRepository(E.Item);
  expect(await items.saveMany([item('warm', 0)])).toEqual({ written: 1 });
});

afterEach(() => {
  proxy.refuseNew(false);
  proxy.pass();
});

afterAll(async () => {
  await proxied.close();
  await closeMapper(direct, [E.tables.items]);
  await proxy.close();
});

const id = (prefix: string, i: number): string => `${prefix}-${String(i).padStart(6, '0')}`;
const item = (prefix: string, i: number): Item =>
  Object.assign(new E.Item(), { id: id(prefix, i), n: i, label: `label ${i}` });

async function stored(prefix: string): Promise<Set<string>> {
  return new Set((await rawKeys(direct, E.tables.items)).filter((k) => k.startsWith(`${prefix}-`)));
}

/**
 * Adds `total` entities of `prefix`, calling `at(i)` before entity `i`; stops
 * at the first refused add. Returns each accepted entity's outcome.
 */
async function produce(
  writer: ReturnType<Repository<Item>['bulkWriter']>,
  prefix: string,
  total: number,
  at: (i: number) => void = () => undefined,
): Promise<{ outcomes: WriteOutcome<Item>[]; refused: unknown }> {
  const pending: Promise<WriteOutcome<Item>>[] = [];
  let refused: unknown;
  for (let i = 0; i < total; i++) {
    at(i);
    try {
      pending.push((await writer.add(item(prefix, i))).outcome);
    } catch (err) {
      refused = err;
      break;
    }
  }
  await writer.close();
  return { outcomes: await Promise.all(pending), refused };
}

/** Every persisted entity is stored; a stored one that is not persisted was cut in flight (unknown, or failed by a cut). */
async function expectExact(prefix: string, outcomes: WriteOutcome<Item>[]): Promise<void> {
  const present = await stored(prefix);
  const wrong: string[] = [];
  for (const o of outcomes) {
    if (o.status === 'persisted' && !present.has(o.rowKey)) wrong.push(`${o.rowKey} persisted, missing`);
    if (o.status === 'failed' && present.has(o.rowKey) && o.grpcCode !== 1 && o.grpcCode !== 4)
      wrong.push(`${o.rowKey} failed with ${o.grpcCode}, present`);
  }
  const reported = new Set(outcomes.map((o) => o.rowKey));
  for (const key of present) if (!reported.has(key)) wrong.push(`${key} present, never accepted`);
  expect(wrong).toEqual([]);
}

describe('BulkWriter through the fault proxy', () => {
  it('connection resets and a data stall during a run: retried, and every outcome matches the table', async () => {
    const writer = items.bulkWriter({ batchSize: 100, concurrency: 2, attemptTimeoutMs: 1_000, timeoutMs: 30_000 });
    const { outcomes, refused } = await produce(writer, 'flaky', 3_000, (i) => {
      if (i === 600) proxy.faultAfter({ bytes: 30_000, fault: 'reset', direction: 'toServer' });
      if (i === 1_500) proxy.stallData({ afterBytes: 10_000, forMs: 1_500, direction: 'toClient' });
      if (i === 2_400) proxy.resetAll();
    });
    expect(refused).toBeUndefined();
    expect(outcomes).toHaveLength(3_000);
    // Every mutation is idempotent, so resets and stalls are retried until they land.
    expect(
      outcomes.flatMap((o) => (o.status === 'persisted' ? [] : [`${o.rowKey}: ${o.status} ${o.message}`])),
    ).toEqual([]);
    await expectExact('flaky', outcomes);
  }, 60_000);

  it('a backend that dies mid-run: the writer stops within the batch deadline with a full account', async () => {
    const writer = items.bulkWriter({ batchSize: 100, concurrency: 2, timeoutMs: 2_000, attemptTimeoutMs: 500 });
    const { outcomes, refused } = await produce(writer, 'dead', 100_000, (i) => {
      if (i !== 500) return;
      proxy.stall();
      proxy.refuseNew(true);
    });
    expect(refused).toBeInstanceOf(DriverError); // the dead-backend breaker's cause
    const totals = writer.totals;
    expect(totals.pending).toBe(0);
    expect(totals.accepted).toBe(outcomes.length);
    expect(totals.persisted + totals.failed + totals.unknown).toBe(totals.accepted);
    expect(totals.accepted).toBeLessThan(100_000);
    proxy.refuseNew(false);
    proxy.pass();
    await expectExact('dead', outcomes);
  }, 60_000);

  it('close() while adds wait on a stalled backend settles: the waiting adds get in, and everything ends with an outcome', async () => {
    const writer = items.bulkWriter({ batchSize: 50, concurrency: 1, maxOutstandingRows: 100, timeoutMs: 1_500 });
    for (let i = 0; i < 100; i++) await writer.add(item('stalled', i));
    proxy.stall();
    const waiting = Array.from({ length: 20 }, (_, i) => writer.add(item('stalled', 100 + i)));
    const totals = await writer.close();
    const accepted = await Promise.allSettled(waiting);
    expect(accepted.every((a) => a.status === 'fulfilled')).toBe(true);
    expect(totals.pending).toBe(0);
    expect(totals.accepted).toBe(120);
    expect(totals.persisted + totals.failed + totals.unknown).toBe(120);
  }, 60_000);

  it('a producer that throws loses nothing it had added: close() writes every accepted entity', async () => {
    const writer = items.bulkWriter({ batchSize: 100 });
    const handles: Promise<WriteOutcome<Item>>[] = [];
    const produceThenThrow = async (): Promise<void> => {
      for (let i = 0; ; i++) {
        if (i === 777) throw new Error('the source broke');
        handles.push((await writer.add(item('thrower', i))).outcome);
      }
    };
    await expect(produceThenThrow()).rejects.toThrow('the source broke');
    expect(await writer.close()).toEqual({ accepted: 777, persisted: 777, failed: 0, unknown: 0, pending: 0 });
    expect((await stored('thrower')).size).toBe(777);
    await expectExact('thrower', await Promise.all(handles));
  });

  it('mutations that are not idempotent, cut by resets: unknown, never resent; the table holds the persisted ones plus some unknown ones, nothing failed', async () => {
    const table = E.tables.items;
    const writer = new BulkWriter<Item>({
      entityName: 'Item',
      table,
      // The same rows, marked as not idempotent (as an aggregate's add would be).
      compile: (e) => ({ ...items.compileSave(e), idempotent: false }),
      send: (mutations) => proxied.driver.mutateRows({ table, mutations }, { signal: deadlineSignal(20_000) }),
      signals: [],
      options: checkBulkWriteOptions('Item', { batchSize: 100, concurrency: 2, flushIntervalMs: 0 }),
    });
    const pending: Promise<WriteOutcome<Item>>[] = [];
    for (let i = 0; i < 2_000; i++) {
      if (i === 500) proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toServer' });
      if (i === 1_200) proxy.faultAfter({ bytes: 500, fault: 'reset', direction: 'toClient' });
      pending.push((await writer.add(item('once', i))).outcome);
    }
    const totals = await writer.close();
    const outcomes = await Promise.all(pending);
    expect(totals.pending).toBe(0);
    expect(totals.persisted + totals.failed + totals.unknown).toBe(2_000);
    // The resets cut calls in flight: their rows have no status, and are never sent again.
    expect(totals.unknown).toBeGreaterThan(0);
    const present = await stored('once');
    const wrong: string[] = [];
    for (const o of outcomes) {
      if (o.status === 'persisted' && !present.has(o.rowKey)) wrong.push(`${o.rowKey} persisted, missing`);
      if (o.status === 'failed' && present.has(o.rowKey)) wrong.push(`${o.rowKey} failed (${o.grpcCode}), present`);
    }
    expect(wrong).toEqual([]);
  }, 60_000);
});
