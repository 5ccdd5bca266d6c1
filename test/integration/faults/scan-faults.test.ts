import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, type Repository } from '../../../src/index.js';
import type { GoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import type { CallOptions } from '../../../src/model/driver.js';
import { DeadlineExceededError, OperationAbortedError } from '../../../src/errors/operation-errors.js';
import { closeMapper, makeEntities, openMapper } from '../../fixtures/entities.js';
import { emulatorHost, testInstanceId } from '../../support/emulator.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { rowsOf } from '../../support/rows-of.js';
import { deadlineSignal } from '../../../src/util/operation-signal.js';

const E = makeEntities('scanfault');
type SaltedEvent = InstanceType<typeof E.SaltedEvent>;
type PlainEvent = InstanceType<typeof E.PlainEvent>;

const USERS = 10;
const SEQS = 30;
const ROWS = USERS * SEQS;
const PAYLOAD = 'p'.repeat(400);
const event = (u: number, seq: number) => ({
  userId: `u${String(u).padStart(2, '0')}`,
  seq,
  payload: `${PAYLOAD}-${u}-${seq}`,
});
/** Every event, in logical key order: what any scan of either table must deliver. */
const EXPECTED = Array.from({ length: USERS }, (_, u) =>
  Array.from({ length: SEQS }, (_, seq) => `u${String(u).padStart(2, '0')}#${seq}`),
).flat();
const idOf = (e: { userId: string; seq: number }): string => `${e.userId}#${e.seq}`;

let writer: BigtableMapper;
let proxy: FaultProxy;
/** Every RPC of this mapper goes through the proxy. */
let mapper: BigtableMapper;
let salted: Repository<SaltedEvent>;
let plain: Repository<PlainEvent>;
let driver: GoogleCloudDriver;

const readKeys = async (call?: CallOptions): Promise<string[]> => {
  const keys: string[] = [];
  for await (const row of rowsOf(driver.readRows({ table: E.tables.plain }, call))) keys.push(row.key.toString());
  return keys;
};

beforeAll(async () => {
  writer = openMapper([E.SaltedEvent, E.PlainEvent]);
  await writer.sync();
  const events = Array.from({ length: USERS }, (_, u) =>
    Array.from({ length: SEQS }, (_, seq) => event(u, seq)),
  ).flat();
  await writer.getRepository(E.SaltedEvent).saveMany(events.map((e) => Object.assign(new E.SaltedEvent(), e)));
  await writer.getRepository(E.PlainEvent).saveMany(events.map((e) => Object.assign(new E.PlainEvent(), e)));
  proxy = await startFaultProxy(emulatorHost());
  mapper = new BigtableMapper({
    emulatorHost: proxy.host,
    instance: testInstanceId,
    entities: [E.SaltedEvent, E.PlainEvent],
  });
  salted = mapper.getRepository(E.SaltedEvent);
  plain = mapper.getRepository(E.PlainEvent);
  driver = mapper.driver as GoogleCloudDriver;
}, 60_000);

afterEach(() => proxy.pass());

afterAll(async () => {
  await mapper?.close();
  await proxy?.close();
  await closeMapper(writer, [E.tables.salted, E.tables.plain]);
});

describe('scans through a proxy that resets every connection after 20 kB', () => {
  it('a driver read delivers every row exactly once, in key order, over several connections', async () => {
    const clean = await readKeys();
    expect(clean).toHaveLength(ROWS);
    const before = proxy.connectionsOpened;
    proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toClient', every: true });
    expect(await readKeys()).toEqual(clean);
    expect(proxy.connectionsOpened - before).toBeGreaterThanOrEqual(3);
  });

  it('an unsalted repository scan delivers every entity exactly once, in order', async () => {
    proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toClient', every: true });
    const events = await lastValueFrom(plain.scan().pipe(toArray()));
    expect(events.map(idOf)).toEqual(EXPECTED);
    expect(events.every((e) => e.payload === `${PAYLOAD}-${Number(e.userId.slice(1))}-${e.seq}`)).toBe(true);
  });

  it('an ordered salted scan over 8 buckets delivers every entity exactly once, in logical key order', async () => {
    const before = proxy.connectionsOpened;
    proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toClient', every: true });
    const ids: string[] = [];
    for await (const e of salted.iterate({ order: 'key' })) ids.push(idOf(e));
    expect(ids).toEqual(EXPECTED);
    expect(proxy.connectionsOpened - before).toBeGreaterThanOrEqual(3);
  });

  it('an unordered salted scan (Observable) delivers every entity exactly once', async () => {
    proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toClient', every: true });
    const events = await lastValueFrom(salted.scan({ order: 'none' }).pipe(toArray()));
    expect(events.map(idOf).sort()).toEqual([...EXPECTED].sort());
  });

  it('a parallel ordered scan, and the shards of a plan, deliver every entity exactly once, in order', async () => {
    proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toClient', every: true });
    const ids: string[] = [];
    for await (const e of plain.iterate({ parallelism: 4 })) ids.push(idOf(e));
    expect(ids).toEqual(EXPECTED);
    const shards = await mapper.planShards(E.PlainEvent, { shards: 3 });
    const parts = await Promise.all(
      shards.map(async (shard) => {
        const part: string[] = [];
        for await (const e of plain.iterate({ shard })) part.push(idOf(e));
        return part;
      }),
    );
    expect(parts.flat()).toEqual(EXPECTED);
  });

  it('paging an ordered salted scan delivers every entity exactly once, in order', async () => {
    proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toClient', every: true });
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await salted.page({ limit: 70, cursor });
      ids.push(...page.items.map(idOf));
      cursor = page.cursor;
    } while (cursor !== undefined);
    expect(ids).toEqual(EXPECTED);
  });
});

describe('reversed scans through a proxy that resets every connection after 20 kB', () => {
  const DESCENDING = [...EXPECTED].reverse();

  it('a reversed driver read delivers every row exactly once, in descending key order, over several connections', async () => {
    const clean = await readKeys();
    const before = proxy.connectionsOpened;
    proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toClient', every: true });
    const keys: string[] = [];
    for await (const row of rowsOf(driver.readRows({ table: E.tables.plain, reversed: true })))
      keys.push(row.key.toString());
    expect(keys).toEqual([...clean].reverse());
    expect(proxy.connectionsOpened - before).toBeGreaterThanOrEqual(3);
  });

  it('a reversed driver read with a limit resumes with the rest of the limit: exactly the largest keys', async () => {
    const clean = await readKeys();
    proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toClient', every: true });
    const keys: string[] = [];
    for await (const row of rowsOf(driver.readRows({ table: E.tables.plain, reversed: true, limit: 150 })))
      keys.push(row.key.toString());
    expect(keys).toEqual([...clean].reverse().slice(0, 150));
  });

  it("an order: 'key-desc' salted scan over 8 buckets delivers every entity exactly once, in descending order", async () => {
    const before = proxy.connectionsOpened;
    proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toClient', every: true });
    const ids: string[] = [];
    for await (const e of salted.iterate({ order: 'key-desc' })) ids.push(idOf(e));
    expect(ids).toEqual(DESCENDING);
    expect(proxy.connectionsOpened - before).toBeGreaterThanOrEqual(3);
  });

  it("paging an order: 'key-desc' salted scan delivers every entity exactly once, in descending order", async () => {
    proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toClient', every: true });
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await salted.page({ order: 'key-desc', limit: 70, cursor });
      ids.push(...page.items.map(idOf));
      cursor = page.cursor;
    } while (cursor !== undefined);
    expect(ids).toEqual(DESCENDING);
  });
});

describe('scans through a stalled connection', () => {
  // Every connection stalls, new ones included: a retry after an idle timeout goes out on a new connection, so a
  // stall of one connection alone is recovered from (wedged-connection.test.ts). Each attempt gets at most 10 kB
  // before it stalls and is cut 300 ms later, so within 2 s the read gets at most 7 × 10 kB, about half the table.
  it('a driver read that stalls mid-scan fails with DeadlineExceededError at its deadline instead of hanging', async () => {
    await readKeys();
    proxy.faultAfter({ bytes: 10_000, fault: 'stall', direction: 'toClient', every: true });
    const keys: string[] = [];
    const failure = await (async () => {
      for await (const row of rowsOf(
        driver.readRows({ table: E.tables.plain }, { signal: deadlineSignal(2_000), idleTimeoutMs: 300 }),
      ))
        keys.push(row.key.toString());
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DeadlineExceededError);
    expect(keys.length).toBeLessThan(ROWS);
    expect(driver.activeReads).toBe(0);
  });

  it('a repository scan that stalls fails with DeadlineExceededError within its timeoutMs', async () => {
    await readKeys();
    proxy.faultAfter({ bytes: 10_000, fault: 'stall', direction: 'toClient', every: true });
    const failure = await lastValueFrom(plain.scan({ timeoutMs: 2_000, idleTimeoutMs: 300 }).pipe(toArray())).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DeadlineExceededError);
    expect(driver.activeReads).toBe(0);
  });

  it('a stall longer than the idle timeout that then clears: the read retries and delivers every row once', async () => {
    const clean = await readKeys();
    proxy.faultAfter({ bytes: 20_000, fault: 'stall', direction: 'toClient' });
    const lifted = setTimeout(() => proxy.pass(), 1_000);
    try {
      expect(await readKeys({ signal: deadlineSignal(20_000), idleTimeoutMs: 300 })).toEqual(clean);
    } finally {
      clearTimeout(lifted);
    }
  });
});

describe('abort mid-scan', () => {
  it('aborting the signal rejects the read with OperationAbortedError and closes its stream', async () => {
    const controller = new AbortController();
    const keys: string[] = [];
    const failure = await (async () => {
      for await (const row of rowsOf(driver.readRows({ table: E.tables.plain }, { signal: controller.signal }))) {
        keys.push(row.key.toString());
        if (keys.length === 10) controller.abort();
      }
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OperationAbortedError);
    expect(keys.length).toBeLessThan(ROWS);
    expect(driver.activeReads).toBe(0);
  });
});
