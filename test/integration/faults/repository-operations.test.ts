import { firstValueFrom, toArray } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper, DeadlineExceededError, OperationAbortedError, type Repository } from '../../../src/index.js';
import { emulatorHost, testInstanceId } from '../../support/emulator.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { closeMapper, makeEntities, openMapper, waitFor } from '../../fixtures/entities.js';

const E = makeEntities('opfault');
type SaltedEvent = InstanceType<typeof E.SaltedEvent>;
const ROWS = 2_000;

let proxy: FaultProxy;
let setup: BigtableMapper;

/** A mapper whose every RPC goes through the proxy. */
function proxiedMapper(): BigtableMapper {
  return new BigtableMapper({ emulatorHost: proxy.host, instance: testInstanceId, entities: [E.SaltedEvent] });
}

/** Runs `test` with a proxied mapper; afterwards the network passes again and the mapper is closed. */
async function withProxiedMapper(test: (mapper: BigtableMapper) => Promise<void>): Promise<void> {
  const mapper = proxiedMapper();
  try {
    await test(mapper);
  } finally {
    proxy.pass();
    await mapper.close();
  }
}

function activeReads(mapper: BigtableMapper): number {
  return (mapper.driver as unknown as { activeReads: number }).activeReads;
}

beforeAll(async () => {
  setup = openMapper([E.SaltedEvent]);
  await setup.sync();
  await setup
    .getRepository(E.SaltedEvent)
    .saveMany(
      Array.from({ length: ROWS }, (_, i) =>
        Object.assign(new E.SaltedEvent(), { userId: `u${i % 20}`, seq: i, payload: 'p'.repeat(8_000), n: i }),
      ),
    );
  proxy = await startFaultProxy(emulatorHost());
});

afterEach(() => proxy.pass());

afterAll(async () => {
  await proxy.close();
  await closeMapper(setup, [E.tables.salted]);
});

/** Reads one row of a full ordered scan, then stalls the network: the scan's next rows can only come after the stall (each bucket holds 2 MB, more than a read buffers ahead). */
async function stalledIterator(
  repo: Repository<SaltedEvent>,
  query: Parameters<Repository<SaltedEvent>['iterate']>[0],
): Promise<AsyncIterator<SaltedEvent>> {
  const iterator = repo.iterate(query)[Symbol.asyncIterator]();
  const first = await iterator.next();
  expect(first.done).toBe(false);
  proxy.stall();
  return iterator;
}

/** Pulls until the iterator fails (rows already buffered before the stall come first). */
async function drainUntilError(iterator: AsyncIterator<SaltedEvent>): Promise<unknown> {
  for (;;) {
    try {
      const step = await iterator.next();
      if (step.done === true) return undefined;
    } catch (error) {
      return error;
    }
  }
}

describe('operations through a stalled network end with a typed error and leave no read open', () => {
  it('aborting a stalled scan rejects with OperationAbortedError and closes every bucket read', () =>
    withProxiedMapper(async (mapper) => {
      const controller = new AbortController();
      const iterator = await stalledIterator(mapper.getRepository(E.SaltedEvent), { signal: controller.signal });
      setTimeout(() => controller.abort(new Error('user navigated away')), 200);
      const error = await drainUntilError(iterator);
      expect(error).toBeInstanceOf(OperationAbortedError);
      expect((error as Error).message).toContain('user navigated away');
      await waitFor(() => activeReads(mapper) === 0, 5_000, `reads still open: ${activeReads(mapper)}`);
    }));

  it('a stalled scan with a total timeout fails with DeadlineExceededError', () =>
    withProxiedMapper(async (mapper) => {
      const iterator = await stalledIterator(mapper.getRepository(E.SaltedEvent), { timeoutMs: 1_500 });
      const error = await drainUntilError(iterator);
      expect(error, String(error)).toBeInstanceOf(DeadlineExceededError);
      expect((error as DeadlineExceededError).operation).toBe('SaltedEvent.scan');
    }));

  it('findOne and page against a stalled network fail with DeadlineExceededError at their timeoutMs', () =>
    withProxiedMapper(async (mapper) => {
      const repo = mapper.getRepository(E.SaltedEvent);
      expect(await repo.findOne({ userId: 'u1', seq: 1 })).toBeDefined();
      proxy.stall();
      await expect(repo.findOne({ userId: 'u1', seq: 1 }, { timeoutMs: 500 })).rejects.toBeInstanceOf(
        DeadlineExceededError,
      );
      await expect(repo.page({ limit: 10, timeoutMs: 500 })).rejects.toBeInstanceOf(DeadlineExceededError);
    }));

  it('an Observable scan stalled mid-way errors with OperationAbortedError when its signal aborts', () =>
    withProxiedMapper(async (mapper) => {
      const controller = new AbortController();
      const all = firstValueFrom(
        mapper.getRepository(E.SaltedEvent).scan({ signal: controller.signal }).pipe(toArray()),
      );
      await waitFor(() => activeReads(mapper) > 0, 5_000, 'the scan never opened its reads');
      proxy.stall();
      setTimeout(() => controller.abort(), 200);
      await expect(all).rejects.toBeInstanceOf(OperationAbortedError);
    }));

  it('close() during a stalled scan rejects its pending read with OperationAbortedError and resolves', async () => {
    const mapper = proxiedMapper();
    const iterator = await stalledIterator(mapper.getRepository(E.SaltedEvent), {});
    const failed = drainUntilError(iterator);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await mapper.close();
    expect(await failed).toBeInstanceOf(OperationAbortedError);
    proxy.pass();
  });

  it('after a stall ends, the same mapper reads everything again', async () => {
    const mapper = proxiedMapper();
    try {
      const repo = mapper.getRepository(E.SaltedEvent);
      proxy.stall();
      await expect(repo.findOne({ userId: 'u2', seq: 2 }, { timeoutMs: 300 })).rejects.toBeInstanceOf(
        DeadlineExceededError,
      );
      proxy.pass();
      let count = 0;
      for await (const row of repo.iterate({ where: { userId: 'u3' }, timeoutMs: 20_000 })) {
        expect(row.userId).toBe('u3');
        count += 1;
      }
      expect(count).toBe(ROWS / 20);
    } finally {
      await mapper.close();
    }
  });
});
