import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BigtableMapper,
  Column,
  DeadlineExceededError,
  Entity,
  Family,
  KeyPart,
  WriteOutcomeUnknownError,
  type Repository,
} from '../../../src/index.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { closeMapper, openMapper } from '../../fixtures/entities.js';

/**
 * `add()` is not idempotent: through the fault proxy, a call whose answer
 * never comes back is not sent again and rejects with
 * `WriteOutcomeUnknownError`, while the emulator holds the one input it got.
 */

const table = uniqueTableId('aggregate-faults');

@Entity({ table })
@Family('stats', { aggregate: 'sum' })
@Family('p')
class Hits {
  @KeyPart(0, { type: 'string' }) page!: string;
  @Column({ family: 'stats', type: 'int' }) views?: number | bigint;
  @Column({ family: 'p', type: 'string' }) title?: string;
}

let proxy: FaultProxy;
let direct: BigtableMapper;
let proxied: BigtableMapper;
let hits: Repository<Hits>;

beforeAll(async () => {
  direct = openMapper([Hits]);
  await direct.sync();
  proxy = await startFaultProxy(emulatorHost());
  proxied = new BigtableMapper({ emulatorHost: proxy.host, instance: testInstanceId, entities: [Hits] });
  hits = proxied.getRepository(Hits);
  await hits.add({ page: '/warm' }, { views: 1 });
});

afterEach(() => proxy.pass());

afterAll(async () => {
  await proxied.close();
  await proxy.close();
  await closeMapper(direct, [table]);
});

describe('add() under network faults', () => {
  it('an answer lost to a stall: rejects with WriteOutcomeUnknownError at its deadline, after one attempt that the emulator applied', async () => {
    // The request reaches the emulator; the first byte back stalls the connection both ways.
    proxy.faultAfter({ bytes: 0, fault: 'stall', direction: 'toClient' });
    const err = await hits
      .add({ page: '/lost' }, { views: 5 }, { timeoutMs: 1_500, attemptTimeoutMs: 200 })
      .catch((e: unknown) => e);
    proxy.pass();
    expect(err).toBeInstanceOf(WriteOutcomeUnknownError);
    expect((err as WriteOutcomeUnknownError).cause).toBeInstanceOf(DeadlineExceededError);
    expect((err as Error).message).toMatch(/outcome is unknown/);
    // An idempotent write would have been sent again after each 200 ms attempt timeout; this one was sent once.
    const row = await direct.getRepository(Hits).findOne({ page: '/lost' });
    expect(row?.views).toBe(5);
  });

  it('a connection reset while the request is sent: rejects with WriteOutcomeUnknownError and counts at most once', async () => {
    proxy.faultAfter({ bytes: 0, fault: 'reset', direction: 'toServer' });
    const err = await hits
      .add({ page: '/reset' }, { views: 3 }, { changes: { title: 'r' }, timeoutMs: 5_000 })
      .catch((e: unknown) => e);
    proxy.pass();
    expect(err).toBeInstanceOf(WriteOutcomeUnknownError);
    const row = await direct.getRepository(Hits).findOne({ page: '/reset' });
    // All or nothing, and never twice: the inputs and the changes are one row write.
    expect([undefined, { page: '/reset', views: 3, title: 'r' }]).toContainEqual(
      row === undefined ? undefined : { page: row.page, views: row.views, title: row.title },
    );
  });
});
