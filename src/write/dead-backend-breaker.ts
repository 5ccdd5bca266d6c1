import { DriverError, TableNotFoundError } from '../errors/errors.js';
import { UnreachableError } from '../errors/operation-errors.js';

/**
 * How many MutateRows batches in a row must fail as a whole with UNAVAILABLE
 * (or on an endpoint that accepts no connection) before a bulk write stops
 * sending: 3. A batch already takes its full retries (up to 10 attempts,
 * about 10 s of backoff) before it counts, so three in a row say the backend
 * is down, not that one connection broke.
 * @internal
 */
export const DEAD_BACKEND_BATCHES = 3;

const UNAVAILABLE = 14;

/**
 * Whether a batch's MutateRows call failed in the way a dead backend fails
 * it: the driver rejected the whole call (the server gave no entry a status,
 * and the last attempt failed) with gRPC 14 UNAVAILABLE, or the endpoint
 * accepted no TCP connection (`UnreachableError`). Entry statuses, other
 * codes, a missing table, and attempts cut by a deadline or an abort are not.
 * @internal
 */
export function isDeadBackendFailure(error: unknown): boolean {
  if (error instanceof UnreachableError) return true;
  return error instanceof DriverError && !(error instanceof TableNotFoundError) && error.grpcCode === UNAVAILABLE;
}

/**
 * Counts the batches of one bulk write that failed because the backend is
 * down ({@link isDeadBackendFailure}), in the order they settle. After
 * `threshold` of them in a row it opens, and stays open: {@link cause} is
 * the last one's error, and the write sends nothing more. A batch the server
 * answered, or one that failed any other way, ends the run.
 * @internal
 * @example
 * ```ts
 * const breaker = new DeadBackendBreaker();
 * try { await driver.mutateRows({ table, mutations: rows }); breaker.answered(); }
 * catch (err) { breaker.failed(err); }
 * if (breaker.cause !== undefined) stopSending();
 * ```
 */
export class DeadBackendBreaker {
  readonly #threshold: number;
  #run = 0;
  #cause: { readonly error: unknown } | undefined;

  constructor(threshold: number = DEAD_BACKEND_BATCHES) {
    if (!Number.isSafeInteger(threshold) || threshold < 1)
      throw new RangeError(`DeadBackendBreaker: threshold must be a positive integer, got ${threshold}`);
    this.#threshold = threshold;
  }

  /** The error of the batch that opened the breaker; `undefined` while it is closed. */
  get cause(): unknown {
    return this.#cause?.error;
  }

  /** Whether the breaker is open: the write must send nothing more. */
  get open(): boolean {
    return this.#cause !== undefined;
  }

  /** A batch the server answered (whatever the entries' statuses): the backend is up. */
  answered(): void {
    if (this.#cause === undefined) this.#run = 0;
  }

  /** A batch whose call failed as a whole with `error`. */
  failed(error: unknown): void {
    if (this.#cause !== undefined) return;
    if (!isDeadBackendFailure(error)) {
      this.#run = 0;
      return;
    }
    this.#run += 1;
    if (this.#run >= this.#threshold) this.#cause = { error };
  }
}
