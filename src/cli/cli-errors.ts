import { BigtableMapperError, ErrorCode } from '../errors/bigtable-mapper-error.js';
import { MetadataError } from '../errors/errors.js';

/**
 * Exit codes of the `bigtable-mapper` command, for scripts and CI:
 * `0` success; `1` a check failed (schema drift with `sync --check`, lint
 * findings, an uneven study); `2` bad usage or input (arguments, JSON, entity
 * declarations, key values); `3` the operation failed (Bigtable unreachable,
 * deadline, server error).
 */
export const ExitCode = { Ok: 0, CheckFailed: 1, Usage: 2, Failed: 3 } as const;

/** Bad command-line usage: an unknown entity, malformed JSON, a missing flag. */
export class CliUsageError extends Error {
  constructor(
    problem: string,
    readonly fix: string,
  ) {
    super(`${problem}. Fix: ${fix}`);
    this.name = 'CliUsageError';
  }
}

const INPUT_CODES: ReadonlySet<string> = new Set([
  ErrorCode.Validation,
  ErrorCode.KeyEncoding,
  ErrorCode.ValueEncoding,
]);

/** The exit code an error ends the command with. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof CliUsageError || error instanceof MetadataError) return ExitCode.Usage;
  if (error instanceof BigtableMapperError && INPUT_CODES.has(error.code)) return ExitCode.Usage;
  return ExitCode.Failed;
}
