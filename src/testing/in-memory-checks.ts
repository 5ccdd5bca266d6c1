import type { CallOptions, IncrementRule } from '../model/driver.js';
import type { CellMutation } from '../model/mutation.js';
import { DriverError, ValidationError } from '../errors/errors.js';
import type { DeadlineExceededError } from '../errors/operation-errors.js';
import { deadlineError, deadlineOf, throwIfAborted } from '../util/operation-signal.js';
import { GrpcCode } from './grpc-code.js';

/** Bigtable's per-request mutation cap. @internal */
export const MAX_MUTATIONS_PER_REQUEST = 100_000;
/** Bigtable's row key limit (the emulator has none). */
const MAX_ROW_KEY_BYTES = 4096;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** A setCell timestamp asking for the server's time. @internal */
export const SERVER_TIME = -1;

/**
 * Why Bigtable would refuse a write: its gRPC code and message.
 *
 * @example
 * ```ts
 * const problem: WriteProblem = { grpcCode: 3, message: 'row key must not be empty' };
 * ```
 * @internal
 */
export interface WriteProblem {
  readonly grpcCode: number;
  readonly message: string;
}

/**
 * The DriverError a call fails with when the server answers with `code`.
 *
 * @example
 * ```ts
 * throw grpcError('createTable', GrpcCode.AlreadyExists, 'table t already exists');
 * ```
 * @internal
 */
export function grpcError(operation: string, code: number, message: string): DriverError {
  return new DriverError(operation, Object.assign(new Error(message), { code }), code);
}

/**
 * Throws what the real driver throws for a call whose signal has aborted
 * (`OperationAbortedError` with the reason) or whose deadline has passed
 * (`DeadlineExceededError`).
 *
 * @example
 * ```ts
 * checkCall('mutateRow', { signal: deadlineSignal(0) }); // throws DeadlineExceededError
 * ```
 * @internal
 */
export function checkCall(operation: string, call: CallOptions | undefined): void {
  throwIfAborted(call?.signal, operation);
  const stopAt = deadlineOf(call?.signal);
  if (stopAt !== undefined && stopAt <= Date.now()) throw deadlineError(call?.signal) as DeadlineExceededError;
}

/**
 * Rejects increments like the real driver does before sending a
 * ReadModifyWriteRow: no rules, or an amount that is not an int64 bigint.
 *
 * @example
 * ```ts
 * checkIncrementRules('counters', [{ family: 'c', qualifier: 'hits', amount: 1n }]); // ok
 * ```
 * @internal
 */
export function checkIncrementRules(table: string, rules: readonly IncrementRule[]): void {
  if (rules.length === 0)
    throw new ValidationError(`increment ${JSON.stringify(table)}: no rules. Fix: pass at least one IncrementRule.`, {
      table,
    });
  for (const rule of rules) {
    if (typeof rule.amount !== 'bigint' || rule.amount < INT64_MIN || rule.amount > INT64_MAX) {
      throw new ValidationError(
        `increment ${JSON.stringify(table)}: amount of ${rule.family}:${rule.qualifier} is not an int64 bigint. Fix: pass a bigint in [-2^63, 2^63-1].`,
        { table, family: rule.family, qualifier: rule.qualifier },
      );
    }
  }
}

/**
 * Why Bigtable would refuse one row's mutations, or `undefined`: an empty or
 * over-long key, a family the table does not have (when its families are
 * known), a timestamp that is not whole milliseconds, a value that is not
 * bytes.
 *
 * @example
 * ```ts
 * writeProblem(key, mutations, new Set(['m'])); // { grpcCode: 5, message: 'family x not found …' } for family x
 * ```
 * @internal
 */
export function writeProblem(
  table: string,
  rowKey: Buffer,
  mutations: readonly CellMutation[],
  families: ReadonlyMap<string, unknown> | undefined,
): WriteProblem | undefined {
  if (rowKey.length === 0) return { grpcCode: GrpcCode.InvalidArgument, message: 'row key must not be empty' };
  if (rowKey.length > MAX_ROW_KEY_BYTES)
    return {
      grpcCode: GrpcCode.InvalidArgument,
      message: `row key is ${rowKey.length} bytes, over ${MAX_ROW_KEY_BYTES}`,
    };
  for (const m of mutations) {
    if (m.kind === 'deleteFromRow') continue;
    if (families !== undefined && !families.has(m.family))
      return { grpcCode: GrpcCode.NotFound, message: `family ${m.family} not found in table ${table}` };
    if (m.kind !== 'setCell') continue;
    const { timestampMicros } = m;
    if (
      timestampMicros !== SERVER_TIME &&
      (!Number.isSafeInteger(timestampMicros) || timestampMicros < 0 || timestampMicros % 1000 !== 0)
    ) {
      return {
        grpcCode: GrpcCode.InvalidArgument,
        message: `timestamp ${timestampMicros} is not a whole number of milliseconds in microseconds`,
      };
    }
    if (!Buffer.isBuffer(m.value)) return { grpcCode: GrpcCode.InvalidArgument, message: 'cell value is not a Buffer' };
  }
  return undefined;
}
