import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CheckAndMutateRequest } from '../../../src/model/driver.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import type { GoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import { DeadlineExceededError, OperationAbortedError } from '../../../src/errors/index.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { startFaultProxy } from '../../support/fault-proxy.js';
import type { FaultProxy } from '../../support/fault-proxy.js';
import { rowsOf } from '../../support/rows-of.js';
import { deadlineSignal } from '../../../src/util/operation-signal.js';

const table = uniqueTableId('adm-atomic-dl');
let proxy: FaultProxy;
let driver: GoogleCloudDriver;

const request: CheckAndMutateRequest = {
  table,
  rowKey: Buffer.from('job'),
  predicate: undefined,
  onMatch: [],
  onNoMatch: [{ kind: 'setCell', family: 'f', qualifier: 'q', timestampMicros: 1_000, value: Buffer.from('v') }],
};
const rules = [{ family: 'f', qualifier: 'n', amount: 1n }];

const failure = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );

function expectDeadline(error: unknown, kind: 'total' | 'attempt', operation: string): void {
  expect(error).toBeInstanceOf(DeadlineExceededError);
  expect((error as DeadlineExceededError).kind).toBe(kind);
  expect((error as DeadlineExceededError).operation).toContain(operation);
}

beforeAll(async () => {
  proxy = await startFaultProxy(emulatorHost());
  driver = createGoogleCloudDriver({ emulatorHost: proxy.host, instance: testInstanceId });
  await driver.createTable({ table, families: [{ name: 'f', gc: undefined }] });
  expect(await driver.checkAndMutate(request)).toBe(false);
});

/**
 * Lets the network pass again and waits until both channels work: pass()
 * resets the connections that lost bytes, and a never-retried call sent
 * before the client reconnects fails at once with UNAVAILABLE.
 */
afterEach(async () => {
  proxy.pass();
  await driver.getFamilies({ table });
  for await (const row of rowsOf(driver.readRows({ table, limit: 1 }))) expect(row.key.length).toBeGreaterThan(0);
});

afterAll(async () => {
  proxy.pass();
  await driver.deleteTable({ table }).catch(() => undefined);
  await driver.close();
  await proxy.close();
});

describe('admin and atomic calls under a stalled network', () => {
  it('checkAndMutate and increment reject with the total deadline', async () => {
    proxy.stall();
    expectDeadline(
      await failure(driver.checkAndMutate(request, { signal: deadlineSignal(400, { operation: 'checkAndMutate' }) })),
      'total',
      'checkAndMutate',
    );
    expectDeadline(
      await failure(
        driver.increment(
          { table, rowKey: Buffer.from('c'), rules },
          { signal: deadlineSignal(400, { operation: 'increment' }) },
        ),
      ),
      'total',
      'increment',
    );
  });

  it('checkAndMutate is never retried: an attempt timeout fails it with kind "attempt"', async () => {
    proxy.stall();
    expectDeadline(
      await failure(driver.checkAndMutate(request, { signal: deadlineSignal(20_000), attemptTimeoutMs: 300 })),
      'attempt',
      'checkAndMutate',
    );
  });

  it('getFamilies and listTables reject with the total deadline, retrying timed-out attempts until then', async () => {
    proxy.stall();
    expectDeadline(
      await failure(driver.getFamilies({ table }, { signal: deadlineSignal(400, { operation: 'getFamilies' }) })),
      'total',
      'getFamilies',
    );
    expectDeadline(
      await failure(
        driver.getFamilies(
          { table },
          { signal: deadlineSignal(900, { operation: 'getFamilies' }), attemptTimeoutMs: 200 },
        ),
      ),
      'total',
      'getFamilies',
    );
    expectDeadline(
      await failure(driver.listTables({}, { signal: deadlineSignal(400, { operation: 'listTables' }) })),
      'total',
      'listTables',
    );
  });

  it('a non-idempotent admin call fails with its attempt timeout', async () => {
    proxy.stall();
    expectDeadline(
      await failure(
        driver.createFamily(
          { table, family: { name: 'g', gc: undefined } },
          { signal: deadlineSignal(20_000), attemptTimeoutMs: 300 },
        ),
      ),
      'attempt',
      'createFamily',
    );
  });

  it('aborting the signal rejects with OperationAbortedError', async () => {
    proxy.stall();
    for (const start of [
      (signal: AbortSignal) => driver.checkAndMutate(request, { signal }),
      (signal: AbortSignal) => driver.increment({ table, rowKey: Buffer.from('c'), rules }, { signal }),
      (signal: AbortSignal) => driver.getFamilies({ table }, { signal }),
      (signal: AbortSignal) => driver.deleteFamily({ table, family: 'f' }, { signal }),
    ]) {
      const controller = new AbortController();
      const pending = failure(start(controller.signal));
      setTimeout(() => controller.abort(new Error('user stop')), 100);
      const error = await pending;
      expect(error).toBeInstanceOf(OperationAbortedError);
      expect((error as OperationAbortedError).message).toContain('user stop');
    }
  });

  it('an already aborted signal or a passed deadline sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await failure(driver.checkAndMutate(request, { signal: controller.signal }))).toBeInstanceOf(
      OperationAbortedError,
    );
    expectDeadline(
      await failure(driver.listTables({}, { signal: deadlineSignal(0, { operation: 'listTables' }) })),
      'total',
      'listTables',
    );
  });

  it('an idempotent admin call recovers once the network passes', async () => {
    proxy.stall();
    await failure(driver.getFamilies({ table }, { signal: deadlineSignal(200) }));
    proxy.pass();
    expect((await driver.getFamilies({ table }, { signal: deadlineSignal(10_000) }))?.map((f) => f.name)).toEqual([
      'f',
    ]);
  });
});
