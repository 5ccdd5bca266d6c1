import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGoogleCloudDriver, type GoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import type { AttemptListener } from '../../../src/driver/retry-engine.js';
import type { CompiledMutation } from '../../../src/model/mutation.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { rowsOf } from '../../support/rows-of.js';

const table = uniqueTableId('drv-attempts');
const ROWS = 200;
let proxy: FaultProxy;
let driver: GoogleCloudDriver;

/** Every row of a read. */
async function collect<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

/** Every listener event as one line, e.g. `ReadRows end 0 14`. */
function recorder(): { events: string[]; listener: AttemptListener } {
  const events: string[] = [];
  return {
    events,
    listener: {
      attemptStarted: (e) => events.push(`${e.method} start ${e.attempt}`),
      attemptEnded: (e) => events.push(`${e.method} end ${e.attempt} ${e.status}`),
      retryScheduled: (e) => events.push(`${e.method} retry`),
      operationEnded: (e) => events.push(`${e.method} ${e.outcome} after ${e.attempts}`),
    },
  };
}

beforeAll(async () => {
  proxy = await startFaultProxy(emulatorHost());
  driver = createGoogleCloudDriver({ emulatorHost: proxy.host, instance: testInstanceId });
  await driver.createTable({ table, families: [{ name: 'f', gc: undefined }] });
  const mutations: CompiledMutation[] = Array.from({ length: ROWS }, (_, i) => ({
    table,
    rowKey: Buffer.from(`k${String(i).padStart(4, '0')}`),
    rowKeyText: `k${i}`,
    mutations: [{ kind: 'setCell', family: 'f', qualifier: 'q', timestampMicros: 1_000, value: Buffer.alloc(512, 97) }],
    idempotent: true,
  }));
  await driver.mutateRows({ table, mutations });
});

afterAll(async () => {
  proxy.pass();
  await driver.deleteTable({ table }).catch(() => undefined);
  await driver.close();
  await proxy.close();
});

describe("the retry engine's attempt listener on a real driver", () => {
  it('hears one attempt per unary, admin and streaming call, each ended with status 0', async () => {
    const { events, listener } = recorder();
    driver.attemptListener = listener;
    try {
      await driver.getFamilies({ table });
      await driver.checkAndMutate({
        table,
        rowKey: Buffer.from('k0000'),
        predicate: undefined,
        onMatch: [],
        onNoMatch: [],
      });
      expect(await collect(rowsOf(driver.readRows({ table, limit: 3 })))).toHaveLength(3);
    } finally {
      driver.attemptListener = undefined;
    }
    expect(events).toEqual([
      'getFamilies start 0',
      'getFamilies end 0 0',
      'getFamilies done after 1',
      'CheckAndMutateRow start 0',
      'CheckAndMutateRow end 0 0',
      'CheckAndMutateRow done after 1',
      'ReadRows start 0',
      'ReadRows end 0 0',
      'ReadRows done after 1',
    ]);
  });

  it('a connection reset mid-read shows a failed attempt, a retry and the resumed attempt, under one call', async () => {
    const { events, listener } = recorder();
    driver.attemptListener = listener;
    proxy.faultAfter({ bytes: 20_000, fault: 'reset', direction: 'toClient' });
    try {
      expect(await collect(rowsOf(driver.readRows({ table })))).toHaveLength(ROWS);
    } finally {
      driver.attemptListener = undefined;
      proxy.pass();
    }
    expect(events[0]).toBe('ReadRows start 0');
    expect(events[1]).toMatch(/^ReadRows end 0 (13|14)$/);
    expect(events[2]).toBe('ReadRows retry');
    expect(events[3]).toBe('ReadRows start 1');
    expect(events.at(-1)).toMatch(/^ReadRows done after [2-9]$/);
    expect(events.filter((e) => e.endsWith(' retry'))).toHaveLength(events.filter((e) => / start /.test(e)).length - 1);
  });
});
