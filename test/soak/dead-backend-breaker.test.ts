import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, DriverError, PartialWriteError, type Repository } from '../../src/index.js';
import { createGoogleCloudDriver, type GoogleCloudDriver } from '../../src/driver/google-cloud-driver.js';
import { emulatorHost, testInstanceId } from '../support/emulator.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';
import { DEAD_BACKEND_BATCHES } from '../../src/write/dead-backend-breaker.js';
import {
  closeMapper,
  makeEntities,
  openMapper,
  rawKeys,
  recordingDriver,
  type DriverRecord,
} from '../fixtures/entities.js';

/**
 * saveMany against a backend that dies mid-write, through the fault proxy and
 * the real client: once a few batches in a row failed with UNAVAILABLE, the
 * rest of the input is not sent (without the breaker every remaining batch
 * would go through its 10 attempts, about 10 s each), and the report still
 * accounts for every entity.
 */

const E = makeEntities('breaker');
type Item = InstanceType<typeof E.Item>;

let proxy: FaultProxy;
let inner: GoogleCloudDriver;
let record: DriverRecord;
let proxied: BigtableMapper;
let direct: BigtableMapper;
let items: Repository<Item>;

beforeAll(async () => {
  proxy = await startFaultProxy(emulatorHost());
  direct = openMapper([E.Item]);
  await direct.sync();
  inner = createGoogleCloudDriver({ emulatorHost: proxy.host, instance: testInstanceId });
  const recorded = recordingDriver(inner);
  record = recorded.record;
  proxied = new BigtableMapper({ driver: recorded.driver, entities: [E.Item] });
  items = proxied.getRepository(E.Item);
  expect(await items.saveMany([item('warm', 0)])).toEqual({ written: 1 });
});

afterEach(() => {
  proxy.refuseNew(false);
  proxy.pass();
});

afterAll(async () => {
  await proxied.close();
  await inner.close();
  await closeMapper(direct, [E.tables.items]);
  await proxy.close();
});

const id = (prefix: string, i: number): string => `${prefix}-${String(i).padStart(5, '0')}`;
const item = (prefix: string, i: number): Item => Object.assign(new E.Item(), { id: id(prefix, i), n: i });
const batchesSent = (): number => record.calls.filter((c) => c === 'mutateRows').length;

/** `n` small entities of `prefix`; `onRead(i)` runs as entity `i` is read from the input. */
function* entities(prefix: string, n: number, onRead: (i: number) => void): Generator<Item> {
  for (let i = 0; i < n; i++) {
    onRead(i);
    yield item(prefix, i);
  }
}

describe('saveMany against a dead backend', () => {
  it('stops sending after a few batches in a row failed with UNAVAILABLE, and accounts for every entity', async () => {
    const total = 20_000;
    const concurrency = 3;
    let sentBeforeOutage = -1;
    const input = entities('dead', total, (i) => {
      if (i !== 2_000) return;
      sentBeforeOutage = batchesSent();
      proxy.refuseNew(true); // the backend is gone: every new connection is reset
      proxy.resetAll();
    });
    const startedAt = Date.now();
    const error = await items
      .saveMany(input, { batchSize: 500, concurrency, timeoutMs: 45_000 })
      .catch((e: unknown) => e);
    const elapsedMs = Date.now() - startedAt;
    const sentAfterOutage = batchesSent() - sentBeforeOutage;

    expect(error).toBeInstanceOf(PartialWriteError);
    const report = error as PartialWriteError<Item>;
    // stopped by the breaker, not by the deadline: the cause is the last UNAVAILABLE
    expect(report.cause).toBeInstanceOf(DriverError);
    expect((report.cause as DriverError).grpcCode).toBe(14);
    // the batches in flight at the outage, plus at most one more per failure before the count was reached
    expect(sentAfterOutage).toBeLessThanOrEqual(DEAD_BACKEND_BATCHES + concurrency);
    expect(elapsedMs).toBeLessThan(40_000);

    // every entity accounted for once: persisted, failed, not attempted or never read
    const read = report.unreadFrom ?? total;
    expect(report.succeeded + report.failures.length + report.notAttempted.length).toBe(read);
    expect(report.notAttempted.length + (total - read)).toBeGreaterThan(total / 2);
    const outcomes = new Set([...report.failures.map((f) => f.index), ...report.notAttempted]);
    expect(outcomes.size).toBe(report.failures.length + report.notAttempted.length);
    expect(report.failures.filter((f) => f.grpcCode !== 14).map((f) => `#${f.index}: ${f.message}`)).toEqual([]);

    // the table holds exactly what the report says was persisted
    proxy.refuseNew(false);
    proxy.pass();
    const present = new Set((await rawKeys(direct, E.tables.items)).filter((k) => k.startsWith('dead-')));
    const wrong: string[] = [];
    for (let i = 0; i < total; i++) {
      const persisted = report.wasPersisted(i);
      const neverSent = report.notAttempted.includes(i) || i >= read;
      if (persisted && !present.has(id('dead', i))) wrong.push(`#${i} reported persisted, missing`);
      if (neverSent && present.has(id('dead', i))) wrong.push(`#${i} never sent, present`);
    }
    expect(wrong).toEqual([]);
    // a failed batch may or may not have been applied (its reply can be lost with the connection)
    expect(present.size).toBeGreaterThanOrEqual(report.succeeded);
    expect(present.size).toBeLessThanOrEqual(report.succeeded + report.failures.length);
  }, 90_000);
});
