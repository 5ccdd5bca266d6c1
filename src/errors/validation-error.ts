import { BigtableMapperError } from './bigtable-mapper-error.js';
import { ErrorCode } from './error-codes.js';

/**
 * An argument to a public method is invalid: an unknown property in a query or
 * `select`, a malformed cursor, bad options. Names the argument and the fix.
 *
 * @example
 * ```ts
 * await repo.findOne({ sensorId: 's1' }); // missing `ts`
 * // ValidationError: Reading: key is missing "ts". Fix: pass every key part ...
 * ```
 */
export class ValidationError extends BigtableMapperError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super(ErrorCode.Validation, message, { details });
  }
}
