import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CompiledMutation } from '../../../src/model/mutation.js';
import { createGoogleCloudDriver } from '../../../src/driver/google-cloud-driver.js';
import type { ReadRowsRequest } from '../../../src/model/driver.js';
import type { ReadRowsMessage } from '../../../src/driver/read-rows-message.js';
import { DriverError } from '../../../src/errors/errors.js';
import { emulatorHost, testInstanceId, uniqueTableId } from '../../support/emulator.js';
import { rowsOf } from '../../support/rows-of.js';

const driver = createGoogleCloudDriver({ emulatorHost: emulatorHost(), instance: testInstanceId });
const table = uniqueTableId('drv-retry');
const ROWS = 300;
const keyOf = (i: number): string => `k${String(i).padStart(4, '0')}`;

/**
 * Runs `read` while the real client's ReadRows calls fail with `error` after
 * `after[n]` responses on attempt n (no entry: the attempt runs to its end).
 * Returns the requests the driver sent.
 */
async function withFailures(
  after: readonly number[],
  error: () => Error,
  read: () => Promise<void>,
): Promise<ReadRowsMessage[]> {
  const sent: ReadRowsMessage[] = [];
  const data = driver.data;
  const original = data.readRows.bind(data);
  const readRows = vi.spyOn(data, 'readRows').mockImplementation((message, attempt) => {
    const stream = original(message, attempt) as ReturnType<typeof original> & {
      emit(event: 'error', error: Error): boolean;
      pause(): void;
    };
    const failAfter = after[sent.length];
    sent.push(message);
    let responses = 0;
    if (failAfter !== undefined) {
      stream.on('data', () => {
        responses += 1;
        if (responses !== failAfter) return;
        // No response after this one; the attempt merges it, then hears the error before the
        // cancel's own CANCELLED status, which it then ignores.
        stream.pause();
        process.nextTick(() => {
          stream.emit('error', error());
          stream.cancel();
        });
      });
    }
    return stream;
  });
  try {
    await read();
  } finally {
    readRows.mockRestore();
  }
  return sent;
}

async function readKeys(request: ReadRowsRequest): Promise<string[]> {
  const keys: string[] = [];
  for await (const row of rowsOf(driver.readRows(request))) keys.push(row.key.toString());
  return keys;
}

const unavailable = (): Error => Object.assign(new Error('injected: connection reset'), { code: 14 });

beforeAll(async () => {
  const batch: CompiledMutation[] = Array.from({ length: ROWS }, (_, i) => ({
    table,
    rowKey: Buffer.from(keyOf(i)),
    rowKeyText: keyOf(i),
    mutations: [{ kind: 'setCell', family: 'f', qualifier: 'q', timestampMicros: 1_000, value: Buffer.from(`v${i}`) }],
    idempotent: true,
  }));
  await driver.createTable({ table, families: [{ name: 'f', gc: undefined }] });
  expect(await driver.mutateRows({ table, mutations: batch })).toEqual([]);
}, 60_000);

afterAll(async () => {
  await driver.deleteTable({ table }).catch(() => undefined);
  await driver.close();
});

describe('readRows retries through the real client', () => {
  it('after UNAVAILABLE mid-scan, reads the rest after the last row delivered: every row exactly once, in order', async () => {
    let keys: string[] = [];
    const sent = await withFailures([40, 25], unavailable, async () => {
      keys = await readKeys({ table });
    });
    expect(keys).toEqual(Array.from({ length: ROWS }, (_, i) => keyOf(i)));
    expect(sent).toHaveLength(3);
    expect(sent[1]?.rows.rowRanges).toEqual([{ startKeyOpen: Buffer.from(keyOf(39)) }]);
    expect(sent[2]?.rows.rowRanges).toEqual([{ startKeyOpen: Buffer.from(keyOf(64)) }]);
  });

  it('keeps the limit over attempts and drops keys and ranges already read', async () => {
    let keys: string[] = [];
    const request: ReadRowsRequest = {
      table,
      keys: [Buffer.from(keyOf(5)), Buffer.from(keyOf(250))],
      ranges: [
        {
          start: { key: Buffer.from(keyOf(10)), inclusive: true },
          end: { key: Buffer.from(keyOf(20)), inclusive: false },
        },
        { start: { key: Buffer.from(keyOf(100)), inclusive: true }, end: undefined },
      ],
      limit: 30,
    };
    const sent = await withFailures([12], unavailable, async () => {
      keys = await readKeys(request);
    });
    const expected = [
      5,
      ...Array.from({ length: 10 }, (_, i) => 10 + i),
      ...Array.from({ length: 19 }, (_, i) => 100 + i),
    ].map(keyOf);
    expect(keys).toEqual(expected);
    expect(sent[1]?.rowsLimit).toBe(18);
    expect(sent[1]?.rows.rowKeys).toEqual([Buffer.from(keyOf(250))]);
    expect(sent[1]?.rows.rowRanges).toEqual([{ startKeyOpen: Buffer.from(keyOf(100)) }]);
  });

  it('asks the server for its last scanned key, so a filtered scan resumes after the rows the filter dropped', async () => {
    let keys: string[] = [];
    const filter: ReadRowsRequest['filter'] = {
      kind: 'interleave',
      filters: [
        { kind: 'valueEquals', value: Buffer.from('v100') },
        { kind: 'valueEquals', value: Buffer.from('v250') },
      ],
    };
    const sent = await withFailures([50], unavailable, async () => {
      keys = await readKeys({ table, filter });
    });
    expect(keys).toEqual([keyOf(100), keyOf(250)]);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.rows.rowRanges).toEqual([{ startKeyOpen: Buffer.from(keyOf(49)) }]);
  });

  it('fails with the gRPC code once an error is not retryable, after the rows read before it', async () => {
    const keys: string[] = [];
    let failure: unknown;
    const sent = await withFailures(
      [7],
      () => Object.assign(new Error('injected: permission denied'), { code: 7 }),
      async () => {
        try {
          for await (const row of rowsOf(driver.readRows({ table }))) keys.push(row.key.toString());
        } catch (error) {
          failure = error;
        }
      },
    );
    expect(sent).toHaveLength(1);
    expect(keys).toEqual(Array.from({ length: 7 }, (_, i) => keyOf(i)));
    expect(failure).toBeInstanceOf(DriverError);
    expect((failure as DriverError).grpcCode).toBe(7);
    expect(driver.activeReads).toBe(0);
  });
});
