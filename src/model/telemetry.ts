/**
 * The `telemetry` option of a mapper: `true` for metrics and traces, or each
 * on its own.
 *
 * @example
 * ```ts
 * new BigtableMapper({ ..., telemetry: { metrics: true, traces: false } });
 * ```
 */
export interface TelemetryOptions {
  /** Client-side metrics (`operation_latencies`, `attempt_latencies`, ...) through the registered MeterProvider. Default `true`. */
  metrics?: boolean;
  /** A span per repository operation with a child span per RPC attempt, through the registered TracerProvider. Default `true`. */
  traces?: boolean;
  /**
   * Adds the first bytes of each RPC's first row key to its attempt span and to the operation's span, as
   * `bigtable_mapper.row_key_prefix` (printable ASCII as is, other bytes as `\xNN`): 0 to 64 bytes. Default 0:
   * no key on any span, since a key can hold personal data. A prefix of a salted key shows its bucket.
   */
  rowKeyPrefixBytes?: number;
}

/**
 * Where a mapper's `logger` option writes: the shape of NestJS's `LoggerService`, pino and console.
 * Each method is called with one string (so pino's and Nest's argument orders both work); the library
 * uses `debug` for each retry, and `warn` for a call slower than `slowOperationMs`, a partial write and an
 * entity's lint findings. A method that is missing is skipped, and one that throws is ignored.
 *
 * @example
 * ```ts
 * new BigtableMapper({ ..., logger: new Logger('Bigtable'), slowOperationMs: 2_000 }); // NestJS
 * new BigtableMapper({ ..., logger: pino(), slowOperationMs: 2_000 });
 * ```
 */
export interface MapperLogger {
  /** Each retry of an RPC: which call, which attempt failed with which gRPC code, and the wait before the next. */
  debug?(message: string): void;
  /** Not used by the library today; part of the shape so a Nest `LoggerService` fits. */
  log?(message: string): void;
  /** A repository call that took `slowOperationMs` or longer; a partial write (entity, table, counts); with `lint`, an entity's findings. */
  warn?(message: string): void;
  /** Not used by the library today; part of the shape so a Nest `LoggerService` fits. */
  error?(message: string): void;
}

/**
 * What a repository call carries down to the driver in its `CallOptions`, so
 * that the attempts of its RPCs are counted and traced under it: the entity
 * and repository operation it runs for, and its operation span (opaque here;
 * only `telemetry/` reads it). The driver passes it on untouched.
 * @internal
 */
export interface CallTelemetry {
  /** The entity class's name, e.g. `Reading`; `undefined` for mapper-wide calls (`sync`). */
  readonly entity: string | undefined;
  /** The repository operation, e.g. `save`, `scan`, `sync`. */
  readonly operation: string;
  /** The operation's span, when tracing is on. */
  readonly span?: unknown;
  /** Where a scan reports what only the mapper sees, when metrics are on. */
  readonly scan?: ScanMeasures;
}

/**
 * What a scan tells telemetry about itself: the ranges it reads (one per salt
 * bucket of a salted entity), each time its ordered merge waited for a
 * bucket's next rows, and how many rows wait read ahead of that merge.
 * Structurally an ordered merge's observer (`stream/merge.ts`).
 * @internal
 */
export interface ScanMeasures {
  started(table: string, ranges: number): void;
  waited(ms: number): void;
  readAhead(rows: number): void;
}

/**
 * The hook a mapper with telemetry gives its calls: `start` runs when a
 * repository call starts and returns what its `CallOptions` carry, and
 * `end` when the call settles (with its error, if it failed).
 * @internal
 */
export interface OperationTelemetry {
  start(name: string, appProfileId?: string): StartedOperation;
}

/** One repository call as telemetry sees it. @internal */
export interface StartedOperation {
  readonly call: CallTelemetry;
  end(error?: unknown): void;
  /** Runs `fn` with the call's span as the active one, so calls it makes in turn (a save reading its denormalization sources) are its children. */
  within?<R>(fn: () => R): R;
}
