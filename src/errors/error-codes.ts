/**
 * Stable machine-readable codes carried by every {@link BigtableMapperError}.
 *
 * @example
 * ```ts
 * if (err instanceof BigtableMapperError && err.code === ErrorCode.KeyEncoding) { ... }
 * ```
 */
export const ErrorCode = {
  /** A decorator declaration is invalid (found while compiling an entity). */
  Metadata: 'METADATA_INVALID',
  /** A row-key component could not be encoded or decoded. */
  KeyEncoding: 'KEY_ENCODING',
  /** A cell value could not be encoded or decoded. */
  ValueEncoding: 'VALUE_ENCODING',
  /** An argument to a public method is invalid (query, options, entity shape). */
  Validation: 'VALIDATION',
  /** `findOneOrFail` found no row. */
  NotFound: 'NOT_FOUND',
  /** Some rows of a bulk write failed; the others were persisted. */
  PartialWrite: 'PARTIAL_WRITE',
  /** The Bigtable client or server reported an error. */
  Driver: 'DRIVER',
  /** Schema sync could not compare or apply a change. */
  SchemaSync: 'SCHEMA_SYNC',
  /** The Bigtable emulator could not be found or started. */
  Emulator: 'EMULATOR',
  /** An operation ran past its deadline (total, per attempt, or idle stream); every RPC it started was cancelled. */
  DeadlineExceeded: 'DEADLINE_EXCEEDED',
  /** An operation was aborted (its `AbortSignal`, or `mapper.close()`); every RPC it started was cancelled. */
  Aborted: 'ABORTED',
  /** The Bigtable endpoint could not be reached (nothing listening, refused, unresolvable). */
  Unreachable: 'UNREACHABLE',
} as const;

/** Union of all {@link ErrorCode} values. @example `const c: ErrorCodeValue = 'NOT_FOUND';` */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];
