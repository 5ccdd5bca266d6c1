import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mutateWithRetries, type MutateAttemptStream } from '../../src/driver/mutate-rows-call.js';
import { fakeMutateAttempt, type FakeAttemptReply, type FakeMutateRequest } from '../support/fake-mutate-rpc.js';

/**
 * The write retry cases `@google-cloud/bigtable` runs against its own
 * `table.mutate()` (`data/mutate-rows-retry-test.json`, see the README),
 * against the driver's MutateRows retry loop ({@link mutateWithRetries}) over
 * fake attempts: each attempt must send exactly the case's batch, gets the
 * case's per-entry codes (or, for a non-200 response, fails as a whole with
 * the gRPC code of that HTTP status), and the entries that fail in the end
 * must be the case's errors. `max_retries` retries means `max_retries + 1`
 * attempts; no delay between them. The cases' entries are inserts the Node
 * client treats as retryable, so every entry is idempotent here.
 */

interface MutateRetryCase {
  name: string;
  max_retries: number;
  mutations_request: { method: string; key: string; data: object }[];
  responses: { code: number; entry_codes?: number[] }[];
  mutation_batches_invoked: string[][];
  errors?: { index_in_mutations_request: number }[];
}

const CASES = (
  JSON.parse(readFileSync(new URL('./data/mutate-rows-retry-test.json', import.meta.url), 'utf8')) as {
    tests: MutateRetryCase[];
  }
).tests;

/** The gRPC status of a whole-RPC HTTP failure, as google-gax maps HTTP statuses. */
const GRPC_CODE_OF_HTTP: Readonly<Record<number, number>> = {
  400: 3,
  401: 16,
  403: 7,
  404: 5,
  409: 10,
  429: 8,
  499: 1,
  500: 13,
  501: 12,
  503: 14,
  504: 4,
};

function replyOf(response: MutateRetryCase['responses'][number] | undefined, name: string): FakeAttemptReply {
  if (response === undefined) throw new Error(`${name}: an attempt more than the case has responses for`);
  if (response.code === 200) return { statuses: response.entry_codes ?? [] };
  const code = GRPC_CODE_OF_HTTP[response.code];
  if (code === undefined) throw new Error(`${name}: no gRPC code known for HTTP ${response.code}`);
  return { then: { error: { code, message: `HTTP ${response.code}` } } };
}

describe('mutate-rows-retry-test.json (nodejs-bigtable conformance) against mutateWithRetries', () => {
  it('has the 5 cases the file held when vendored', () => {
    expect(CASES).toHaveLength(5);
  });

  for (const testCase of CASES) {
    it(testCase.name, async () => {
      const keys = testCase.mutations_request.map((m) => m.key);
      const requests: FakeMutateRequest[] = [];
      const failures = await mutateWithRetries({
        operation: `conformance ${testCase.name}`,
        entries: keys,
        idempotent: () => true,
        retry: { maxAttempts: testCase.max_retries + 1, delayMs: () => 0 },
        open: (batch, attempt) => {
          const request: FakeMutateRequest = { keys: [...batch], attemptHeader: attempt, cancels: 0 };
          requests.push(request);
          return fakeMutateAttempt(
            batch,
            replyOf(testCase.responses[attempt], testCase.name),
            request,
          ) as unknown as MutateAttemptStream;
        },
      });
      expect(requests.map((r) => r.keys)).toEqual(testCase.mutation_batches_invoked);
      expect(failures.map((f) => f.position)).toEqual((testCase.errors ?? []).map((e) => e.index_in_mutations_request));
      expect(requests).toHaveLength(testCase.responses.length);
    });
  }
});
