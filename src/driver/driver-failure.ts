import { DriverError, extractGrpcCode, TableNotFoundError } from '../errors/errors.js';

const NOT_FOUND = 5;

/**
 * The typed error of a data call on `table` that the client or server failed:
 * `TableNotFoundError` when the server answered NOT_FOUND about the table,
 * otherwise `DriverError` with the gRPC code. Bigtable and its emulator
 * answer NOT_FOUND on a data call only for a missing table (or instance, whose
 * message does not name a table: that stays a `DriverError`).
 * @internal
 * @example
 * ```ts
 * throw driverFailure('readRows "readings"', 'readings', err);
 * ```
 */
export function driverFailure(operation: string, table: string, cause: unknown, grpcCode?: number): DriverError {
  const code = grpcCode ?? extractGrpcCode(cause);
  if (code === NOT_FOUND && /\btables?\b/i.test(cause instanceof Error ? cause.message : String(cause)))
    return new TableNotFoundError(operation, table, cause);
  return new DriverError(operation, cause, code);
}
