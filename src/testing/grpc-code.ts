/**
 * gRPC status codes by name, for the failures an {@link InMemoryBigtable}
 * injects (`reject`, `failNext`) and for checking `DriverError.grpcCode`.
 *
 * @example
 * ```ts
 * bigtable.failNext('mutateRow', GrpcCode.Unavailable);
 * expect(error.grpcCode).toBe(GrpcCode.Unavailable); // 14
 * ```
 */
export const GrpcCode = Object.freeze({
  /** The call was cancelled. */
  Cancelled: 1,
  /** An unknown error. */
  Unknown: 2,
  /** The request is malformed (a key over 4 KiB, a bad timestamp). */
  InvalidArgument: 3,
  /** The deadline passed before the server answered. */
  DeadlineExceeded: 4,
  /** The table or family does not exist. */
  NotFound: 5,
  /** The table or family exists already. */
  AlreadyExists: 6,
  /** The caller may not do this. */
  PermissionDenied: 7,
  /** Quota or server resources exhausted (transient). */
  ResourceExhausted: 8,
  /** The state does not allow it (an increment of a cell that is not 8 bytes). */
  FailedPrecondition: 9,
  /** The server aborted the call (transient). */
  Aborted: 10,
  /** A value out of range. */
  OutOfRange: 11,
  /** Not implemented by the server. */
  Unimplemented: 12,
  /** A server error (transient when it says RST_STREAM). */
  Internal: 13,
  /** The server is unreachable (transient). */
  Unavailable: 14,
  /** Unrecoverable data loss. */
  DataLoss: 15,
  /** No valid credentials. */
  Unauthenticated: 16,
} as const);
