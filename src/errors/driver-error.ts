import { BigtableMapperError } from './bigtable-mapper-error.js';
import { ErrorCode } from './error-codes.js';

/**
 * The Bigtable client or server failed. Keeps the gRPC status code (when there
 * is one) and the original error as `cause`.
 *
 * @example
 * ```ts
 * catch (err) { if (err instanceof DriverError && err.grpcCode === 5) console.error('table missing'); }
 * ```
 */
export class DriverError extends BigtableMapperError {
  /** gRPC status code (5 NOT_FOUND, 14 UNAVAILABLE, ...), when known. */
  readonly grpcCode: number | undefined;

  constructor(operation: string, cause: unknown, grpcCode?: number) {
    const message = cause instanceof Error ? cause.message : String(cause);
    const code = grpcCode ?? extractGrpcCode(cause);
    super(ErrorCode.Driver, `${operation} failed${code === undefined ? '' : ` (gRPC ${code})`}: ${message}`, {
      cause,
      details: { operation, grpcCode: code },
    });
    this.grpcCode = code;
  }
}

/** Reads a numeric gRPC `code` from an unknown error value. @example `extractGrpcCode({ code: 5 }) // 5` */
export function extractGrpcCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}
