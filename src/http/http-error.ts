import { BigtableMapperError, ErrorCode } from '../errors/bigtable-mapper-error.js';
import type { WriteFailure } from '../errors/operation-errors.js';
import { jsonSafe } from './json-safe.js';

/**
 * The JSON body of an HTTP error answer: the status, its reason phrase, the
 * library's stable error `code`, its message (which names `Entity.property`
 * and the fix) and its `details`, made JSON-safe (no Buffers, bigints or stack).
 *
 * @example
 * ```ts
 * const body: HttpErrorBody = { statusCode: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'Reading: no row with key { … }' };
 * ```
 */
export interface HttpErrorBody {
  /** The HTTP status. */
  readonly statusCode: number;
  /** Its reason phrase, e.g. `Bad Request`. */
  readonly error: string;
  /** The error's stable code, see `ErrorCode`. */
  readonly code: string;
  /** The error's message. */
  readonly message: string;
  /** The error's details, JSON-safe; for a partial write, `failures` lists at most 100 failed entities. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * An HTTP status and body for a library error, from {@link toHttpError}.
 *
 * @example
 * ```ts
 * const { status, body }: HttpError = toHttpError(err);
 * ```
 */
export interface HttpError {
  /** The HTTP status, see {@link httpStatusOf}. */
  readonly status: number;
  /** The JSON body to send. */
  readonly body: HttpErrorBody;
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  404: 'Not Found',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

const BY_CODE: Readonly<Record<string, number>> = {
  [ErrorCode.Validation]: 400,
  [ErrorCode.KeyEncoding]: 400,
  [ErrorCode.ValueEncoding]: 400,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.DeadlineExceeded]: 504,
  [ErrorCode.Aborted]: 503,
  [ErrorCode.Unreachable]: 503,
  [ErrorCode.TableNotFound]: 500,
};

/** gRPC codes of a failed call that say "try again later": DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, UNAVAILABLE. */
const BY_GRPC_CODE: Readonly<Record<number, number>> = { 4: 504, 8: 503, 14: 503 };

const MAX_LISTED_FAILURES = 100;

/**
 * The HTTP status for an error of this library, by its `code` (so errors of
 * another copy of the library map the same):
 *
 * | error | status |
 * | --- | --- |
 * | `ValidationError`, `KeyEncodingError`, `ValueEncodingError` | 400 |
 * | `EntityNotFoundError` | 404 |
 * | `DeadlineExceededError` | 504 |
 * | `OperationAbortedError` (its signal, or `mapper.close()` while shutting down) | 503 |
 * | `UnreachableError` | 503 |
 * | `TableNotFoundError` | 500 |
 * | `DriverError`: gRPC 4 → 504, gRPC 8 or 14 → 503, else | 500 |
 * | `PartialWriteError`: every failure invalid input and the write not stopped → 400, else | 500 |
 * | anything else | 500 |
 *
 * @example
 * ```ts
 * httpStatusOf(new ValidationError('Reading: bad limit')); // 400
 * ```
 */
export function httpStatusOf(error: unknown): number {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return 500;
  const status = BY_CODE[code];
  if (status !== undefined) return status;
  if (code === ErrorCode.Driver) {
    const grpcCode = (error as { grpcCode?: unknown }).grpcCode;
    return (typeof grpcCode === 'number' ? BY_GRPC_CODE[grpcCode] : undefined) ?? 500;
  }
  if (code === ErrorCode.PartialWrite) return onlyInvalidInput(error) ? 400 : 500;
  return 500;
}

/**
 * The HTTP answer for an error: for an error of this library, {@link httpStatusOf}
 * and a JSON-safe {@link HttpErrorBody}; for anything else (it takes what a
 * `catch` clause gives), a plain 500 whose body says only "Internal Server
 * Error" (code `INTERNAL`), never the error's own message. A
 * `PartialWriteError`'s body lists its failures (index, row key, gRPC code,
 * message; never the entities), at most 100, with `failuresOmitted` counting
 * the rest. Pure: it logs nothing and sends nothing, so any framework can use it.
 *
 * @example
 * ```ts
 * } catch (err) {
 *   const { status, body } = toHttpError(err);
 *   res.status(status).json(body);
 * }
 * ```
 */
export function toHttpError(error: unknown): HttpError {
  if (!(error instanceof BigtableMapperError)) {
    const reason = REASONS[500] ?? 'Internal Server Error';
    return { status: 500, body: { statusCode: 500, error: reason, code: 'INTERNAL', message: reason } };
  }
  const status = httpStatusOf(error);
  const details: Record<string, unknown> = { ...(jsonSafe(error.details) as Record<string, unknown> | undefined) };
  if (error.code === ErrorCode.PartialWrite) Object.assign(details, failureReport(error));
  const body: HttpErrorBody = {
    statusCode: status,
    error: REASONS[status] ?? 'Error',
    code: error.code,
    message: error.message,
    ...(Object.keys(details).length > 0 ? { details } : {}),
  };
  return { status, body };
}

function failuresOf(error: unknown): readonly WriteFailure[] {
  const failures = (error as { failures?: unknown }).failures;
  return Array.isArray(failures) ? (failures as WriteFailure[]) : [];
}

/** A partial write that failed only because of the entities sent: each rejected before sending as invalid input. */
function onlyInvalidInput(error: unknown): boolean {
  const failures = failuresOf(error);
  if ((error as { cause?: unknown }).cause !== undefined || failures.length === 0) return false;
  return failures.every((f) => {
    const code = (f.cause as { code?: unknown } | null | undefined)?.code;
    return f.grpcCode === undefined && typeof code === 'string' && BY_CODE[code] === 400;
  });
}

function failureReport(error: BigtableMapperError): Record<string, unknown> {
  const failures = failuresOf(error);
  const listed = failures.slice(0, MAX_LISTED_FAILURES).map((f) => ({
    index: f.index,
    rowKey: f.rowKey,
    grpcCode: f.grpcCode,
    message: f.message,
  }));
  const omitted = failures.length - listed.length;
  return {
    failures: jsonSafe(listed),
    ...(omitted > 0 ? { failuresOmitted: omitted } : {}),
    ...(error.cause === undefined ? {} : { stoppedBy: jsonSafe(error.cause) }),
  };
}
