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
}

/**
 * The hook a mapper with telemetry gives its calls: `start` runs when a
 * repository call starts and returns what its `CallOptions` carry, and
 * `end` when the call settles (with its error, if it failed).
 * @internal
 */
export interface OperationTelemetry {
  start(name: string): StartedOperation;
}

/** One repository call as telemetry sees it. @internal */
export interface StartedOperation {
  readonly call: CallTelemetry;
  end(error?: unknown): void;
}
