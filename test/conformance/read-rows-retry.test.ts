import { readFileSync } from 'node:fs';
import { setImmediate as macrotask } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { KeyRange, ReadRowsRequest } from '../../src/model/driver.js';
import { planRead, type ReadPlan } from '../../src/driver/read-plan.js';
import { clientReadRetryPolicy } from '../../src/driver/read-retry.js';
import { ReadRowsCall, type ReadRetryPolicy } from '../../src/driver/read-rows-call.js';
import { toReadRowsMessage } from '../../src/driver/read-rows-message.js';
import { fakeAttempt, responseOf, type FakeAttempt } from '../support/fake-read-attempt.js';

/**
 * The read retry cases `@google-cloud/bigtable` runs against its own
 * `createReadStream()` (`data/read-rows-retry-test.json`, see the README),
 * against {@link ReadRowsCall} over fake attempts: each attempt must send the
 * case's request (resume range, remaining keys and limit, built by the same
 * `toReadRowsMessage` the driver sends), gets the case's rows and error code,
 * and the rows must reach the sink during the attempt that read them; the read
 * ends, or fails with the case's error code. The retry policy is the driver's
 * (`clientReadRetryPolicy`: which codes are retried, `max_retries` in a row)
 * with no delay between attempts.
 */

/** A range as `createReadStream({ ranges })` takes it: both bounds inclusive. */
interface JsonRange {
  start?: string;
  end?: string;
}

/** A `ReadRowsRequest.rows` range in proto3 JSON, keys as text. */
type JsonRowRange = Partial<Record<'startKeyClosed' | 'startKeyOpen' | 'endKeyClosed' | 'endKeyOpen', string>>;

interface ExpectedRequest {
  rowKeys: string[];
  rowRanges: JsonRowRange[];
  rowsLimit?: number;
}

interface ReadRetryCase {
  name: string;
  max_retries: number;
  createReadStream_options?: { ranges?: JsonRange[]; keys?: string[]; limit?: number };
  request_options: ExpectedRequest[];
  responses: { row_keys?: string[]; end_with_error?: number }[];
  row_keys_read: string[][];
  error?: number;
}

const CASES = (
  JSON.parse(readFileSync(new URL('./data/read-rows-retry-test.json', import.meta.url), 'utf8')) as {
    tests: ReadRetryCase[];
  }
).tests;

const TABLE_NAME = 'projects/p/instances/i/tables/t';

/** The driver request `createReadStream(options)` stands for. */
function requestOf(options: ReadRetryCase['createReadStream_options']): ReadRowsRequest {
  const request: { -readonly [K in keyof ReadRowsRequest]: ReadRowsRequest[K] } = { table: 't' };
  if (options?.ranges !== undefined) {
    request.ranges = options.ranges.map((range): KeyRange => ({
      start: { key: Buffer.from(range.start ?? ''), inclusive: true },
      end: range.end === undefined ? undefined : { key: Buffer.from(range.end), inclusive: true },
    }));
  }
  if (options?.keys !== undefined) request.keys = options.keys.map((key) => Buffer.from(key));
  if (options?.limit !== undefined) request.limit = options.limit;
  return request;
}

/** The request an attempt sends for `plan`, keys as text, in the case's terms. */
function sentRequest(plan: ReadPlan): ExpectedRequest {
  const message = toReadRowsMessage(plan, TABLE_NAME, undefined);
  const rowRanges = message.rows.rowRanges.map((range) =>
    Object.fromEntries(Object.entries(range as Record<string, Buffer>).map(([bound, key]) => [bound, key.toString()])),
  );
  const sent: ExpectedRequest = { rowKeys: message.rows.rowKeys.map((key) => key.toString()), rowRanges };
  if (message.rowsLimit !== undefined) sent.rowsLimit = message.rowsLimit;
  return sent;
}

/** The gRPC error an attempt ends with. */
const grpcError = (code: number): Error => Object.assign(new Error(`attempt failed with gRPC code ${code}`), { code });

interface Outcome {
  requests: ExpectedRequest[];
  rowKeysRead: string[][];
  ended: boolean;
  error: unknown;
}

/**
 * Runs one case: for each attempt the read opens, records its request, writes
 * the case's rows (one response each), lets them through, then ends the
 * attempt or fails it with the case's code. Stops when the read settles; an
 * attempt beyond the case's list shows up as an extra request.
 */
async function run(testCase: ReadRetryCase): Promise<Outcome> {
  const plan = planRead(requestOf(testCase.createReadStream_options));
  if (plan === undefined) throw new Error(`case "${testCase.name}" reads nothing`);
  const retry: ReadRetryPolicy = { ...clientReadRetryPolicy(testCase.max_retries), delayMs: () => 0 };
  const outcome: Outcome = { requests: [], rowKeysRead: [], ended: false, error: undefined };
  let opened: FakeAttempt | undefined;
  let wake: (() => void) | undefined;
  const settled = (): boolean => outcome.ended || outcome.error !== undefined;
  const call = new ReadRowsCall(
    plan,
    (part) => {
      const attempt = fakeAttempt();
      outcome.requests.push(sentRequest(part));
      outcome.rowKeysRead.push([]);
      opened = attempt;
      wake?.();
      return attempt.attempt;
    },
    retry,
  );
  /** Resolves once the next attempt is open or the read has settled. */
  const nextAttempt = (): Promise<FakeAttempt | undefined> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (opened !== undefined || settled()) {
          wake = undefined;
          const attempt = opened;
          opened = undefined;
          resolve(attempt);
        }
      };
      wake = check;
      check();
    });
  call.start({
    row: (row) => outcome.rowKeysRead.at(-1)?.push(row.key.toString()),
    end: () => {
      outcome.ended = true;
      wake?.();
    },
    fail: (error) => {
      outcome.error = error;
      wake?.();
    },
  });
  for (const response of testCase.responses) {
    const attempt = await nextAttempt();
    if (attempt === undefined) break;
    for (const key of response.row_keys ?? []) attempt.stream.write(responseOf([{ key }]));
    await macrotask();
    if (response.end_with_error === undefined) attempt.stream.end();
    else attempt.stream.destroy(grpcError(response.end_with_error));
  }
  if ((await nextAttempt()) !== undefined)
    outcome.requests.push({ rowKeys: ['(an attempt the case does not expect)'], rowRanges: [] });
  call.cancel();
  return outcome;
}

describe('read retry conformance (read-rows-retry-test.json) against ReadRowsCall', () => {
  it('holds every case of the vendored file', () => {
    expect(CASES).toHaveLength(9);
    for (const testCase of CASES) {
      expect(testCase.responses).toHaveLength(testCase.request_options.length);
      expect(testCase.row_keys_read).toHaveLength(testCase.request_options.length);
    }
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, testCase) => {
    const outcome = await run(testCase);
    expect(outcome.requests).toEqual(testCase.request_options);
    expect(outcome.rowKeysRead).toEqual(testCase.row_keys_read);
    if (testCase.error === undefined) {
      expect(outcome.error).toBeUndefined();
      expect(outcome.ended).toBe(true);
    } else {
      expect(outcome.ended).toBe(false);
      expect((outcome.error as { code?: unknown } | undefined)?.code).toBe(testCase.error);
    }
  });
});
