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
  reversed?: boolean;
}

interface ReadRetryCase {
  name: string;
  max_retries: number;
  createReadStream_options?: { ranges?: JsonRange[]; keys?: string[]; limit?: number; reversed?: boolean };
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
  if (options?.reversed === true) request.reversed = true;
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
  if (message.reversed === true) sent.reversed = true;
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
    push: (row) => outcome.rowKeysRead.at(-1)?.push(row.key.toString()),
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

/** Runs a case and checks its requests, the rows each attempt delivered, and how the read settled. */
async function expectCase(testCase: ReadRetryCase): Promise<void> {
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
}

describe('read retry conformance (read-rows-retry-test.json) against ReadRowsCall', () => {
  it('holds every case of the vendored file', () => {
    expect(CASES).toHaveLength(9);
    for (const testCase of CASES) {
      expect(testCase.responses).toHaveLength(testCase.request_options.length);
      expect(testCase.row_keys_read).toHaveLength(testCase.request_options.length);
    }
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, testCase) => expectCase(testCase));
});

/**
 * Reversed reads in the same form. The vendored file predates reverse scans
 * (the Node client does not expose them), so these cases are this project's:
 * the rows come largest key first, and each retry asks for what lies below
 * the last row delivered (ranges end before it, keys at or above it go), as
 * the Java and Go clients resume a reversed read.
 */
const REVERSED_CASES: ReadRetryCase[] = [
  {
    name: 'reversed: resumes below the last row delivered',
    max_retries: 3,
    createReadStream_options: { reversed: true },
    request_options: [
      { rowKeys: [], rowRanges: [{}], reversed: true },
      { rowKeys: [], rowRanges: [{ endKeyOpen: 'b' }], reversed: true },
    ],
    responses: [{ row_keys: ['c', 'b'], end_with_error: 4 }, { row_keys: ['a'] }],
    row_keys_read: [['c', 'b'], ['a']],
  },
  {
    name: 'reversed: drops keys and ranges at or above the last row and ends the range that holds it',
    max_retries: 3,
    createReadStream_options: {
      reversed: true,
      ranges: [
        { start: 'a', end: 'c' },
        { start: 'x', end: 'z' },
      ],
      keys: ['d', 'q', 'b'],
    },
    request_options: [
      {
        rowKeys: ['d', 'q', 'b'],
        rowRanges: [
          { startKeyClosed: 'a', endKeyClosed: 'c' },
          { startKeyClosed: 'x', endKeyClosed: 'z' },
        ],
        reversed: true,
      },
      { rowKeys: ['d', 'b'], rowRanges: [{ startKeyClosed: 'a', endKeyClosed: 'c' }], reversed: true },
      { rowKeys: [], rowRanges: [{ startKeyClosed: 'a', endKeyOpen: 'b' }], reversed: true },
    ],
    responses: [
      { row_keys: ['y', 'q'], end_with_error: 14 },
      { row_keys: ['d', 'c', 'b'], end_with_error: 14 },
      { row_keys: ['a'] },
    ],
    row_keys_read: [['y', 'q'], ['d', 'c', 'b'], ['a']],
  },
  {
    name: 'reversed: the row limit counts down over retries and ends the read once reached',
    max_retries: 3,
    createReadStream_options: { reversed: true, limit: 5 },
    request_options: [
      { rowKeys: [], rowRanges: [{}], rowsLimit: 5, reversed: true },
      { rowKeys: [], rowRanges: [{ endKeyOpen: 'd' }], rowsLimit: 3, reversed: true },
    ],
    responses: [
      { row_keys: ['e', 'd'], end_with_error: 4 },
      { row_keys: ['c', 'b', 'a'], end_with_error: 4 },
    ],
    row_keys_read: [
      ['e', 'd'],
      ['c', 'b', 'a'],
    ],
  },
  {
    name: 'reversed: gives up after max_retries errors in a row',
    max_retries: 1,
    createReadStream_options: { reversed: true, ranges: [{ start: 'a', end: 'm' }] },
    request_options: [
      { rowKeys: [], rowRanges: [{ startKeyClosed: 'a', endKeyClosed: 'm' }], reversed: true },
      { rowKeys: [], rowRanges: [{ startKeyClosed: 'a', endKeyOpen: 'k' }], reversed: true },
    ],
    responses: [{ row_keys: ['k'], end_with_error: 4 }, { end_with_error: 4 }],
    row_keys_read: [['k'], []],
    error: 4,
  },
];

describe('reversed read retry cases against ReadRowsCall', () => {
  it.each(REVERSED_CASES.map((c) => [c.name, c] as const))('%s', (_name, testCase) => expectCase(testCase));
});
