import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BigtableMapper,
  DeadlineExceededError,
  OperationAbortedError,
  PartialWriteError,
  type Repository,
} from '../../../src/index.js';
import { emulatorHost, testInstanceId } from '../../support/emulator.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { closeMapper, makeEntities, openMapper, rawKeys } from '../../fixtures/entities.js';

/**
 * saveMany through the fault proxy: a backend that dies mid-write, and an
 * abort mid-write. Either way the write stops sending, settles soon after the
 * deadline or abort, and its PartialWriteError matches what the table holds.
 */

const E = makeEntities('bwfault');
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

const id = (prefix: string, i: number): string => `${prefix}-${String(i).padStart(5, '0')}`;
const item = (prefix: string, i: number): Item =>
  Object.assign(new E.Item(), { id: id(prefix, i), n: i, label: `label ${i}` });

/** `n` entities of `prefix`; `onRead(i)` runs as entity `i` is read from the input. */
function* entities(prefix: string, n: number, onRead: (i: number) => void): Generator<Item> {
  for (let i = 0; i < n; i++) {
    onRead(i);
    yield item(prefix, i);
  }
}

async function stored(prefix: string): Promise<Set<string>> {
  return new Set((await rawKeys(direct, E.tables.items)).filter((k) => k.startsWith(`${prefix}-`)));
}

/** Every entity reported persisted is stored; none reported not attempted, or never read, is. */
async function expectReportMatchesTable(prefix: string, report: PartialWriteError<Item>, total: number): Promise<void> {
  const present = await stored(prefix);
  const wrong: string[] = [];
  const notAttempted = new Set(report.notAttempted);
  for (let i = 0; i < total; i++) {
    const key = id(prefix, i);
    if (report.wasPersisted(i) && !present.has(key)) wrong.push(`${key} reported persisted, missing`);
    const neverSent = notAttempted.has(i) || (report.unreadFrom !== undefined && i >= report.unreadFrom);
    if (neverSent && present.has(key)) wrong.push(`${key} never sent, present`);
  }
  expect(wrong).toEqual([]);
}

describe('saveMany through the fault proxy', () => {
  it('a backend that dies mid-write: stops at the deadline with most entities not attempted, and a DeadlineExceededError cause', async () => {
    const total = 3_000;
    const input = entities('dead', total, (i) => {
      if (i !== 500) return;
      proxy.stall();
      proxy.refuseNew(true);
    });
    const error = await items
      .saveMany(input, { batchSize: 100, concurrency: 2, timeoutMs: 2_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartialWriteError);
    const report = error as PartialWriteError<Item>;
    expect(report.cause).toBeInstanceOf(DeadlineExceededError);
    expect(report.unreadFrom).toBeLessThanOrEqual(701);
    expect(report.succeeded + report.failures.length + report.notAttempted.length).toBe(report.unreadFrom);
    expect(report.failures.length).toBeGreaterThan(0);
    // cut at the deadline: the driver reports code 4 (DEADLINE_EXCEEDED) or the typed error
    expect(
      report.failures
        .filter((f) => f.grpcCode !== 4 && !(f.cause instanceof DeadlineExceededError))
        .map((f) => `#${f.index}: ${f.message}`),
    ).toEqual([]);
    proxy.refuseNew(false);
    proxy.pass();
    await expectReportMatchesTable('dead', report, total);
  }, 20_000);

  it('abort mid-write: stops sending at once, lets the calls in flight settle, and no row appears afterwards', async () => {
    const total = 3_000;
    const controller = new AbortController();
    const input = entities('abort', total, (i) => {
      if (i === 800) controller.abort(new Error('user stopped the import'));
    });
    const error = await items
      .saveMany(input, { batchSize: 100, concurrency: 2, signal: controller.signal })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartialWriteError);
    const report = error as PartialWriteError<Item>;
    expect(report.cause).toBeInstanceOf(OperationAbortedError);
    expect(report.unreadFrom).toBe(800); // the abort came while entity 800 was being read
    expect(report.notAttempted).toContain(799);
    await expectReportMatchesTable('abort', report, total);
    const settled = await stored('abort');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await stored('abort')).toEqual(settled);
  }, 20_000);
});
