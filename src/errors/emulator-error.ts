import { BigtableMapperError } from './bigtable-mapper-error.js';
import { ErrorCode } from './error-codes.js';

/**
 * The Bigtable emulator binary is missing or failed to start. The message says
 * how to install it.
 *
 * @example
 * ```ts
 * catch (err) { if (err instanceof EmulatorError) console.error(err.message); }
 * ```
 */
export class EmulatorError extends BigtableMapperError {
  constructor(message: string, cause?: unknown) {
    super(ErrorCode.Emulator, message, { cause });
  }
}
