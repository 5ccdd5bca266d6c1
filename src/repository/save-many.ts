import type { BigtableDriver, CallOptions } from '../model/driver.js';
import { PartialWriteError, type WriteFailure } from '../errors/operation-errors.js';
import { ValidationError } from '../errors/errors.js';
import { DEFAULT_BATCH_BYTES, resolveBatchLimits } from '../mutation/batch.js';
import type { CompiledMutation } from '../model/mutation.js';
import { MAX_REQUEST_BYTES } from '../mutation/request-limits.js';
import { sendBatches } from '../write/send-batches.js';
import { WriteBatchReader } from '../write/write-batches.js';
import { checkOptionNames } from '../util/option-names.js';

/**
 * Options of bulk writes. A batch closes at `batchSize` rows or about
 * `batchBytes` bytes, whichever comes first.
 * @example
 * ```ts
 * { batchSize: 500, concurrency: 2, batchBytes: 8 * 1024 * 1024 }
 * ```
 */
export interface BulkWriteOptions {
  /** Rows per MutateRows request, 1 to 100,000. Default 500. */
  batchSize?: number;
  /** Requests in flight, 1 to 64. Default 2. */
  concurrency?: number;
  /** About how many bytes per MutateRows request (keys, qualifiers, values and framing), 1 to 256 MiB. Default 20 MiB. */
  batchBytes?: number;
}

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

const RANGES = {
  batchSize: { min: 1, max: 100_000, fallback: 500 },
  concurrency: { min: 1, max: 64, fallback: 2 },
  batchBytes: { min: 1, max: MAX_REQUEST_BYTES, fallback: DEFAULT_BATCH_BYTES },
} as const satisfies Record<keyof BulkWriteOptions, { min: number; max: number; fallback: number }>;

/** The names of {@link BulkWriteOptions}. @internal */
export const BULK_WRITE_OPTION_NAMES: readonly string[] = Object.keys(RANGES);

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
  const { batchSize, concurrency, batchBytes } = checkBulkWriteOptions(entityName, options);
  checkBulkInput(entityName, input);
  const failures: WriteFailure<T>[] = [];
  let written = 0;
  const limits = resolveBatchLimits({ maxEntries: batchSize, maxBytes: batchBytes });
  const reader = new WriteBatchReader(
    input,
    compile,
    limits,
    (index, entity, err) => {
      failures.push({
        index,
        entity,
        rowKey: '',
        grpcCode: undefined,
        message: err instanceof Error ? err.message : String(err),
        cause: err,
      });
    },
    call?.signal,
  );
  try {
    await sendBatches(
      driver,
      table,
      reader,
      concurrency,
      (failure) => failures.push(failure),
      (count) => (written += count),
      call,
    );
  } catch (cause) {
    throw new PartialWriteError<T>(entityName, failures, written, {
      cause,
      notAttempted: reader.dropped,
      unreadFrom: reader.exhausted ? undefined : reader.read,
    });
  }
  if (failures.length > 0) throw new PartialWriteError<T>(entityName, failures, written);
  return { written };
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

function checkBulkWriteOptions(entityName: string, options: BulkWriteOptions): Required<BulkWriteOptions> {
  if (options === null || typeof options !== 'object')
    throw new ValidationError(
      `${entityName}: bulk write options must be an object, got ${String(options)}. Fix: pass e.g. { batchSize: 500, concurrency: 2 }`,
      { entity: entityName, option: 'options' },
    );
  checkOptionNames(`${entityName} bulk write`, options, BULK_WRITE_OPTION_NAMES);
  const checked = {} as Required<BulkWriteOptions>;
  for (const [name, range] of Object.entries(RANGES) as [
    keyof BulkWriteOptions,
    (typeof RANGES)[keyof BulkWriteOptions],
  ][]) {
    const value: unknown = options[name];
    if (value === undefined) {
      checked[name] = range.fallback;
      continue;
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max) {
      throw new ValidationError(
        `${entityName}: ${name} must be an integer from ${range.min} to ${range.max}, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}. Fix: pass ${name}: ${range.fallback} (the default) or another value in that range`,
        { entity: entityName, option: name },
      );
    }
    checked[name] = value;
  }
  return checked;
}
