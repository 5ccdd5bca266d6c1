import { BigtableMapperError, ErrorCode } from './bigtable-mapper-error.js';

/**
 * Which bound an operation ran past.
 * @example
 * ```ts
 * 'total'
 * ```
 * @inline
 */
export type DeadlineKind = 'total' | 'attempt' | 'idle' | 'signal';

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
        ? `its deadline of ${timeoutMs} ms`
        : kind === 'attempt'
          ? `its per-attempt deadline of ${timeoutMs} ms`
          : kind === 'idle'
            ? `its idle timeout (no response) of ${timeoutMs} ms`
            : timeoutMs === 0
              ? 'the deadline of its signal (AbortSignal.timeout), which had already fired'
              : `the deadline of its signal (AbortSignal.timeout) after ${timeoutMs} ms`;
    const fix =
      kind === 'signal'
        ? 'give the signal a longer timeout, or pass timeoutMs instead'
        : "raise the timeout (per call or in the mapper's timeouts) or check the connection to Bigtable";
    super(
      ErrorCode.DeadlineExceeded,
      `${operation} ran past ${what}; every RPC it started was cancelled. Fix: ${fix}`,
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

/**
 * A write that is not idempotent (`repo.add()`, whose `AddToCell` inputs
 * count again if sent again) was cut after it was sent: by its deadline, its
 * signal, or a connection that failed mid-call. Bigtable may or may not have
 * applied it, and it was not sent again. `cause` is the error that cut it.
 *
 * @example
 * ```ts
 * try { await stats.add({ page: '/' }, { views: 1 }); }
 * catch (err) { if (err instanceof WriteOutcomeUnknownError) metrics.count('views-maybe-lost'); else throw err; }
 * ```
 */
export class WriteOutcomeUnknownError extends BigtableMapperError {
  /** The operation that was cut, e.g. `PageStats.add`. */
  readonly operation: string;
  /** The row key, as text. */
  readonly rowKey: string;

  constructor(operation: string, rowKey: string, cause: unknown) {
    const why = cause instanceof Error ? (cause.message.split('\n', 1)[0] ?? '') : String(cause);
    super(
      ErrorCode.OutcomeUnknown,
      `${operation} ${JSON.stringify(rowKey)}: the outcome is unknown, Bigtable may or may not have applied the write (${why}); it was not sent again, since adding twice would count twice. Fix: treat the totals as possibly short by this write, or use increment() (ReadModifyWrite, which returns the new value) where a lost or doubled count matters`,
      { cause, details: { operation, rowKey } },
    );
    this.operation = operation;
    this.rowKey = rowKey;
  }
}

/**
 * One entity that a bulk write could not persist.
 * @example
 * ```ts
 * { index: 3, rowKey: 's1#…', grpcCode: 13, message: 'unknown family' }
 * ```
 */
export interface WriteFailure<T = unknown> {
  /** Position of the entity in the input. */
  readonly index: number;
  /** The entity as given. */
  readonly entity: T;
  /** Physical row key (empty when the entity could not be encoded). */
  readonly rowKey: string;
  /** gRPC status code, or undefined when the entity was rejected before sending. */
  readonly grpcCode: number | undefined;
  /** Why it failed. */
  readonly message: string;
  /** The underlying error, when there is one. */
  readonly cause?: unknown;
}

/**
 * Why a bulk write stopped before the end of its input, and what it never
 * sent.
 * @example
 * ```ts
 * { cause: inputError, notAttempted: [1040, 1041], unreadFrom: 1042 }
 * ```
 * @inline
 */
export interface WriteStop {
  /** The input's error, or the abort or deadline error that stopped the write. */
  readonly cause: unknown;
  /** Input positions read but never sent. */
  readonly notAttempted: readonly number[];
  /** Position of the first entity never read from the input, `undefined` when it was read to its end. */
  readonly unreadFrom: number | undefined;
}

/**
 * Some entities of a bulk write failed, or the write stopped early; it says
 * exactly what happened to every entity of the input:
 * - `failures` lists each failed entity with its gRPC code and message (a
 *   row whose call was cancelled by an abort or deadline is a failure whose
 *   `cause` is that error: it may or may not have been written);
 * - `notAttempted` lists the entities read but never sent, and `unreadFrom`
 *   where reading stopped (every entity from there on was never read);
 * - every other entity was persisted: `succeeded` counts them, and
 *   `wasPersisted(index)` tells one.
 *
 * When the input threw, or the write was aborted or ran past its deadline,
 * the write stopped reading, let the calls in flight settle, and `cause` is
 * that error. `failures` is not enumerable, so logging the error prints the
 * message (at most five failures) rather than every failed entity.
 *
 * @example
 * ```ts
 * try { await repo.saveMany(readings(), { timeoutMs: 60_000 }); }
 * catch (err) {
 *   if (!(err instanceof PartialWriteError)) throw err;
 *   for (const f of err.failures) console.error(f.index, f.grpcCode, f.message);
 *   if (err.cause !== undefined) console.error('stopped by', err.cause, 'resume from', err.notAttempted[0] ?? err.unreadFrom);
 * }
 * ```
 */
export class PartialWriteError<T = unknown> extends BigtableMapperError {
  /** Every failed entity, in input order. */
  declare readonly failures: readonly WriteFailure<T>[];
  /** How many entities were persisted. */
  readonly succeeded: number;
  /** Input positions read but never sent (the write stopped first), in order. */
  readonly notAttempted: readonly number[];
  /** Position of the first entity never read from the input; `undefined` when the input was read to its end. */
  readonly unreadFrom: number | undefined;
  #outcomes: Set<number> | undefined;

  constructor(entity: string, failures: WriteFailure<T>[], succeeded: number, stop?: WriteStop) {
    const sorted = [...failures].sort((a, b) => a.index - b.index);
    const notAttempted = Object.freeze([...(stop?.notAttempted ?? [])].sort((a, b) => a - b));
    const unreadFrom = stop?.unreadFrom;
    const lines = sorted
      .slice(0, 5)
      .map(
        (f) =>
          `  #${f.index} ${f.rowKey || '(no key)'}: ${f.grpcCode === undefined ? '' : `gRPC ${f.grpcCode} `}${f.message}`,
      );
    const more = sorted.length > 5 ? `\n  ... and ${sorted.length - 5} more` : '';
    const headline =
      stop === undefined
        ? `${entity}: ${sorted.length} of ${sorted.length + succeeded} writes failed; the others were persisted.`
        : `${entity}: bulk write stopped (${summary(stop.cause)}): ${succeeded} persisted, ${sorted.length} failed, ${notAttempted.length} not attempted${unreadFrom === undefined ? '' : `, and every entity from #${unreadFrom} on never read`}.`;
    super(ErrorCode.PartialWrite, [headline, ...lines].join('\n') + more, {
      cause: stop?.cause,
      details: {
        entity,
        failed: sorted.length,
        succeeded,
        ...(stop === undefined ? {} : { notAttempted: notAttempted.length, unreadFrom }),
      },
    });
    Object.defineProperty(this, 'failures', {
      value: Object.freeze(sorted),
      enumerable: false,
      writable: false,
      configurable: false,
    });
    this.succeeded = succeeded;
    this.notAttempted = notAttempted;
    this.unreadFrom = unreadFrom;
  }

  /**
   * Whether the entity at input position `index` was persisted: it was read,
   * sent, and is neither a failure nor not attempted.
   * @example
   * ```ts
   * entities.filter((_, i) => !err.wasPersisted(i)); // what to write again
   * ```
   */
  wasPersisted(index: number): boolean {
    const read = this.failures.length + this.succeeded + this.notAttempted.length;
    if (!Number.isInteger(index) || index < 0 || index >= read) return false;
    if (this.#outcomes === undefined)
      this.#outcomes = new Set([...this.failures.map((f) => f.index), ...this.notAttempted]);
    return !this.#outcomes.has(index);
  }
}

/** The first line of an error's message, shortened: what stopped the write. */
function summary(cause: unknown): string {
  const text = cause instanceof Error ? cause.message : String(cause);
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}
