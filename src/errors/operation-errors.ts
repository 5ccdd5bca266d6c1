import { BigtableMapperError } from './bigtable-mapper-error.js';
import { ErrorCode } from './error-codes.js';

/** Which bound an operation ran past. @example `'total'` */
export type DeadlineKind = 'total' | 'attempt' | 'idle';

/**
 * An operation ran past its deadline: its total time (retries included), one
 * RPC attempt that was not retried, or a read stream that stayed silent for
 * its idle timeout on its last attempt. Every RPC the operation started has
 * been cancelled. Writes that were in flight may or may not have been applied
 * (a bulk write's `PartialWriteError` says which rows are known).
 *
 * @example
 * ```ts
 * try { await repo.findOne(key, { timeoutMs: 2_000 }); }
 * catch (err) { if (err instanceof DeadlineExceededError) console.warn(err.operation, err.timeoutMs); }
 * ```
 */
export class DeadlineExceededError extends BigtableMapperError {
  /** The operation that timed out, e.g. `Reading.findOne`. */
  readonly operation: string;
  /** The bound that was exceeded, in milliseconds. */
  readonly timeoutMs: number;
  /** Which bound: the whole operation, one attempt, or a silent read stream. */
  readonly kind: DeadlineKind;

  constructor(operation: string, timeoutMs: number, kind: DeadlineKind = 'total', cause?: unknown) {
    const what =
      kind === 'total'
        ? 'its deadline'
        : kind === 'attempt'
          ? 'its per-attempt deadline'
          : 'its idle timeout (no response)';
    super(
      ErrorCode.DeadlineExceeded,
      `${operation} ran past ${what} of ${timeoutMs} ms; every RPC it started was cancelled. Fix: raise the timeout (per call or in the mapper's timeouts) or check the connection to Bigtable`,
      {
        cause,
        details: { operation, timeoutMs, kind },
      },
    );
    this.operation = operation;
    this.timeoutMs = timeoutMs;
    this.kind = kind;
  }
}

/**
 * An operation was aborted through its `AbortSignal` or by `mapper.close()`.
 * Every RPC it started has been cancelled. The signal's reason, when it is not
 * itself a {@link BigtableMapperError}, is the `cause`.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * setTimeout(() => controller.abort(), 100);
 * try { for await (const r of repo.iterate({ signal: controller.signal })) use(r); }
 * catch (err) { if (err instanceof OperationAbortedError) console.log('stopped'); }
 * ```
 */
export class OperationAbortedError extends BigtableMapperError {
  /** The operation that was aborted. */
  readonly operation: string;

  constructor(operation: string, reason: string, cause?: unknown) {
    super(ErrorCode.Aborted, `${operation} was aborted: ${reason}; every RPC it started was cancelled`, {
      cause,
      details: { operation },
    });
    this.operation = operation;
  }
}

/**
 * The Bigtable endpoint could not be reached within the connect timeout:
 * nothing listens there, the connection is refused, or the name does not
 * resolve. Names the endpoint.
 *
 * @example
 * ```ts
 * catch (err) { if (err instanceof UnreachableError) console.error(`check ${err.endpoint}`); }
 * ```
 */
export class UnreachableError extends BigtableMapperError {
  /** `host:port` that could not be reached. */
  readonly endpoint: string;

  constructor(endpoint: string, message: string, cause?: unknown) {
    super(ErrorCode.Unreachable, message, { cause, details: { endpoint } });
    this.endpoint = endpoint;
  }
}
