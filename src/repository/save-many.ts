import type { BigtableDriver, CallOptions } from '../model/driver.js';
import {
  DeadlineExceededError,
  OperationAbortedError,
  PartialWriteError,
  type WriteFailure,
} from '../errors/operation-errors.js';
import { TableNotFoundError, ValidationError } from '../errors/errors.js';
import type { CompiledMutation } from '../model/mutation.js';
import { BulkWriter, checkBulkWriteOptions, type BulkWriteOptions, type HeldRow } from '../write/bulk-writer.js';
import { deadlineError, deadlineOf } from '../util/operation-signal.js';

export type { BulkWriteOptions } from '../write/bulk-writer.js';

/**
 * Result of a bulk write that fully succeeded.
 * @example
 * ```ts
 * { written: 1000 }
 * ```
 */
export interface BulkWriteResult {
  /** Number of rows written. */
  readonly written: number;
}

/**
 * Compiles and writes entities in MutateRows batches with bounded
 * concurrency, reading the input lazily: the memory it holds is bounded by
 * the batches in flight and the one being filled. Entities that fail to
 * compile (a cell over 100 MiB included) are never sent; entities the server
 * rejects are reported with their gRPC code; all others are persisted.
 *
 * When the input throws, or `call.signal` aborts (the operation's deadline
 * aborts it too), it stops reading and sending, lets the calls in flight
 * settle (the driver cancels them on abort), and rejects with a
 * `PartialWriteError` whose `cause` is that error and which lists what was
 * persisted, failed and not attempted. It stops the same way when the
 * backend is down: once 3 batches in a row (`DEAD_BACKEND_BATCHES`, `write/dead-backend-breaker.ts`)
 * failed as a whole with UNAVAILABLE or could not connect, the rest is never
 * sent and the `cause` is the last of those errors (a batch the server
 * answered starts the count again). Otherwise it throws one
 * `PartialWriteError` listing every failure, or resolves the count written.
 * @internal
 */
export async function writeMany<T>(
  driver: BigtableDriver,
  entityName: string,
  table: string,
  input: Iterable<T> | AsyncIterable<T>,
  compile: (entity: T) => CompiledMutation,
  options: BulkWriteOptions = {},
  call?: CallOptions,
): Promise<BulkWriteResult> {
  const given = checkBulkWriteOptions(entityName, options);
  checkBulkInput(entityName, input);
  // Read no further than the batches in flight and one row: the memory held stays that of `concurrency` batches.
  const checked: Required<BulkWriteOptions> = {
    ...given,
    maxOutstandingRows: options.maxOutstandingRows ?? given.concurrency * given.batchSize + 1,
    maxOutstandingBytes:
      options.maxOutstandingBytes ?? Math.min((given.concurrency + 1) * given.batchBytes, 4 * 1024 ** 3),
    flushIntervalMs: 0,
  };
  const signal = call?.signal;
  const deadline = deadlineOf(signal);
  const inputFailed = new AbortController();
  const failures: WriteFailure<T>[] = [];
  const notAttempted: number[] = [];
  // Input positions of the entities that failed to compile: an accepted entity's input position is its
  // position among the accepted plus the number of these before it.
  const skipped: number[] = [];
  const inputIndex = (accepted: number): number => {
    let index = accepted;
    for (const position of skipped) if (position <= index) index += 1;
    return index;
  };
  let sentCut = false;
  const writer = new BulkWriter<T>({
    entityName,
    table,
    compile,
    options: checked,
    signals: [signal, inputFailed.signal],
    prepare: driver.prepareMutation?.bind(driver),
    send: (mutations) => driver.mutateRows({ table, mutations }, call),
    cut: () =>
      deadline !== undefined && Date.now() >= deadline
        ? (deadlineError(signal) ?? new DeadlineExceededError(`bulk write to "${table}"`, 0, 'total'))
        : undefined,
    onUnsent: (index) => notAttempted.push(inputIndex(index)),
    onFailure: (outcome) => {
      const index = inputIndex(outcome.index);
      if (notAttempted.at(-1) === index) return;
      if (outcome.error instanceof DeadlineExceededError || outcome.error instanceof OperationAbortedError)
        sentCut = true;
      failures.push({
        index,
        entity: outcome.entity,
        rowKey: outcome.rowKey,
        grpcCode: outcome.grpcCode,
        message: outcome.message,
        cause: outcome.error,
      });
    },
    holdFullBatches: true,
  });
  let read = 0;
  let exhausted = false;
  let inputError: { error: unknown } | undefined;
  const add = (entity: T): AcceptOrWait<T> => {
    const index = read++;
    try {
      const offered = writer.offer(entity);
      return offered.accepted !== undefined ? undefined : { entity, ...offered };
    } catch (err) {
      if (writer.closed) {
        notAttempted.push(index);
        return 'stop';
      }
      skipped.push(index);
      failures.push({
        index,
        entity,
        rowKey: '',
        grpcCode: undefined,
        message: err instanceof Error ? err.message : String(err),
        cause: err,
      });
      return undefined;
    }
  };
  const wait = async (pending: Exclude<AcceptOrWait<T>, undefined | 'stop'>): Promise<boolean> => {
    try {
      await writer.enqueue(pending.entity, pending.row);
      return true;
    } catch {
      notAttempted.push(read - 1);
      return false;
    }
  };
  try {
    exhausted = await readInput(
      input,
      add,
      wait,
      () => writer.closed,
      () => writer.room(),
    );
  } catch (error) {
    inputError = { error };
    inputFailed.abort(error);
  }
  await writer.close();
  const written = writer.totals.persisted;
  const stopped = writer.stoppedBy;
  const unsent = notAttempted.length > 0 || !exhausted;
  let cause: unknown;
  if (inputError !== undefined) cause = inputError.error;
  else if (stopped instanceof TableNotFoundError) cause = stopped;
  else if (stopped !== undefined && (unsent || sentCut)) cause = stopped;
  if (cause !== undefined)
    throw new PartialWriteError<T>(entityName, failures, written, {
      cause,
      notAttempted,
      unreadFrom: exhausted ? undefined : read,
    });
  if (failures.length > 0) throw new PartialWriteError<T>(entityName, failures, written);
  return { written };
}

/** What adding one entity gave: accepted (`undefined`), stop reading, or wait for room with its compiled mutation. */
type AcceptOrWait<T> = undefined | 'stop' | { readonly entity: T; readonly accepted: undefined; readonly row: HeldRow };

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Reads the input into `add`, each entity once `room()` says another fits,
 * until it ends (resolves true) or `stopped()`
 * (resolves false, closing the iterator so its `finally` blocks run); a
 * sync iterable is read without a promise per entity (its thenable values
 * are awaited, as `for await` does). Rejects with the input's error.
 */
async function readInput<T>(
  input: Iterable<T> | AsyncIterable<T>,
  add: (entity: T) => AcceptOrWait<T>,
  wait: (pending: Exclude<AcceptOrWait<T>, undefined | 'stop'>) => Promise<boolean>,
  stopped: () => boolean,
  room: () => Promise<void> | undefined,
): Promise<boolean> {
  const source = input as Partial<AsyncIterable<T>> & Iterable<T>;
  const asyncIterator = source[Symbol.asyncIterator];
  const iterator: Iterator<T> | AsyncIterator<T> =
    asyncIterator !== undefined && asyncIterator !== null ? asyncIterator.call(source) : source[Symbol.iterator]();
  const sync = asyncIterator === undefined || asyncIterator === null;
  const close = (): void => {
    if (iterator.return !== undefined)
      Promise.resolve()
        .then(() => iterator.return?.())
        .catch(() => undefined);
  };
  for (;;) {
    const full = room();
    if (full !== undefined) await full;
    if (stopped()) {
      close();
      return false;
    }
    const step = sync ? (iterator as Iterator<T>).next() : await (iterator as AsyncIterator<T>).next();
    if (step.done === true) return true;
    let entity = step.value;
    if (sync && isThenable(entity)) entity = (await entity) as T;
    // Stopped while the input produced it (an abort from the producer itself): it counts as never read.
    if (stopped()) {
      close();
      return false;
    }
    const added = add(entity);
    if (added === undefined) continue;
    if (added === 'stop' || !(await wait(added))) {
      close();
      return false;
    }
  }
}

/**
 * Checks a bulk write's input: an array or any sync or async iterable of
 * entities (not a string). Throws a `ValidationError` otherwise.
 * @internal
 */
export function checkBulkInput(entityName: string, input: unknown): void {
  const iterable =
    input !== null &&
    (typeof input === 'object' || typeof input === 'function') &&
    (typeof (input as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function' ||
      typeof (input as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function');
  if (iterable) return;
  const got =
    input === null
      ? 'null'
      : typeof input === 'string'
        ? 'a string'
        : typeof input === 'object'
          ? 'an object that is not iterable'
          : String(input);
  throw new ValidationError(
    `${entityName}: a bulk write takes an array or an iterable of entities, got ${got}. Fix: pass an array, a generator or an async iterable (e.g. [entity] for one)`,
    { entity: entityName },
  );
}
