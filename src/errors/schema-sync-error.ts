import { BigtableMapperError } from './bigtable-mapper-error.js';
import { ErrorCode } from './error-codes.js';

/**
 * Schema sync could not read or apply a change; names the table and family.
 *
 * @example
 * ```ts
 * catch (err) { if (err instanceof SchemaSyncError) console.error(err.details.table); }
 * ```
 */
export class SchemaSyncError extends BigtableMapperError {
  constructor(message: string, details: Record<string, unknown>, cause?: unknown) {
    super(ErrorCode.SchemaSync, message, { details, cause });
  }
}
