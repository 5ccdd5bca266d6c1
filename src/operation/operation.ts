import type { CallOptions } from '../model/driver.js';
import type { OperationTelemetry } from '../model/telemetry.js';
import { checkTimeoutMs, type OperationKind, type TimeoutSettings } from '../model/timeouts.js';
import { ValidationError } from '../errors/errors.js';
import { abortError, openOperation } from '../util/operation-signal.js';

/**
 * Deadlines and cancellation of one repository call; every field overrides
 * the mapper's default for this call only (see `BigtableMapperOptions.timeouts`).
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * await repo.save(reading, { signal: controller.signal, timeoutMs: 5_000 });
 * for await (const r of repo.iterate({ where: { sensorId: 's1' }, idleTimeoutMs: 10_000 })) use(r);
 * ```
 */
export interface OperationOptions {
  /** Aborting it cancels every RPC of the call, which rejects with `OperationAbortedError`. */
  signal?: AbortSignal;
  /** Total time of the call, retries included (milliseconds); past it the call rejects with `DeadlineExceededError`. */
  timeoutMs?: number;
  /** Longest single RPC attempt (milliseconds). */
  attemptTimeoutMs?: number;
  /** Reads: longest silence on a read stream before its attempt is retried from where it stopped (milliseconds). */
  idleTimeoutMs?: number;
  /**
   * The app profile this call's data RPCs are sent with, instead of the mapper's: e.g. a Data Boost or
   * low-priority profile for a batch read (docs/reliability.md#app-profiles-and-data-boost).
   */
  appProfileId?: string;
}

/** An app profile id as Bigtable accepts it: 1 to 50 characters from `[-_.a-zA-Z0-9]`, not starting with `-` or `.`. */
const APP_PROFILE_ID = /^[_a-zA-Z0-9][-_.a-zA-Z0-9]{0,49}$/;

/**
 * Checks an app profile id (`option` names where it was given), so a typo
 * fails here with a `ValidationError` instead of at the server.
 * @internal
 */
export function checkAppProfileId(option: string, value: unknown): string {
  if (typeof value === 'string' && APP_PROFILE_ID.test(value)) return value;
  throw new ValidationError(
    `${option} must be an app profile id (1 to 50 characters from [-_.a-zA-Z0-9], not starting with - or .), got ${typeof value === 'string' ? JSON.stringify(value.slice(0, 60)) : typeof value}. Fix: pass the id of a profile of the instance, e.g. appProfileId: 'batch'`,
    { option },
  );
}

/**
 * What every repository of a mapper shares for its calls: the resolved
 * timeouts and the signal `mapper.close()` aborts. `track` registers a
 * running call so `close()` can wait for it to settle.
 * @internal
 */
export interface OperationContext {
  readonly timeouts: Readonly<Record<OperationKind, TimeoutSettings>>;
  readonly closing: AbortSignal;
  track<R>(settled: Promise<R>): Promise<R>;
  /** The mapper's clock: milliseconds since the epoch, for cell timestamps and age-based GC on reads. */
  readonly clock: () => number;
  /** The mapper's `tablePrefix`: the plans a repository shows name the tables as they are sent. */
  readonly tablePrefix: string;
  /** The mapper's metrics and traces, when its `telemetry` option is on: each call starts its operation there. */
  readonly telemetry?: OperationTelemetry | undefined;
  /** The mapper's `appProfileId`, for every call that names none. */
  readonly appProfileId?: string | undefined;
}

/**
 * One running call: the driver's {@link CallOptions} and `end()` to release
 * the deadline timer and signal listeners (and end the call's span, failed
 * when `error` is given).
 * @internal
 */
export interface RunningOperation {
  readonly call: CallOptions;
  readonly signal: AbortSignal;
  end(error?: unknown): void;
  /** Runs `fn` inside the call's span (when tracing): calls it starts are the span's children. */
  within<R>(fn: () => R): R;
}

/** The names of {@link OperationOptions}. @internal */
export const OPERATION_OPTION_NAMES = [
  'signal',
  'timeoutMs',
  'attemptTimeoutMs',
  'idleTimeoutMs',
  'appProfileId',
] as const satisfies readonly (keyof OperationOptions)[];

/**
 * Starts a call of `kind`: checks the per-call options (a `ValidationError`
 * names a bad one), opens its deadline and cancellation scope over the
 * caller's signal and the mapper's closing signal.
 * @internal
 */
export function startOperation(
  context: OperationContext,
  kind: OperationKind,
  name: string,
  options: OperationOptions | undefined,
): RunningOperation {
  const given = checkOperationOptions(name, options);
  const defaults = context.timeouts[kind];
  const totalMs = given.timeoutMs ?? defaults.totalMs;
  const scope = openOperation(name, totalMs, [given.signal, context.closing]);
  const appProfileId = given.appProfileId ?? context.appProfileId;
  const started = context.telemetry?.start(name, appProfileId);
  const call: CallOptions = {
    signal: scope.signal,
    attemptTimeoutMs: Math.min(given.attemptTimeoutMs ?? defaults.attemptMs, totalMs),
    idleTimeoutMs: given.idleTimeoutMs ?? defaults.idleMs,
    ...(appProfileId === undefined ? {} : { appProfileId }),
    ...(started === undefined ? {} : { telemetry: started.call }),
  };
  let ended = false;
  return {
    call,
    signal: scope.signal,
    end: (error?: unknown) => {
      if (ended) return;
      ended = true;
      scope.dispose();
      started?.end(error);
    },
    within: (fn) => (started?.within === undefined ? fn() : started.within(fn)),
  };
}

/**
 * Runs `run` as one call of `kind`, tracked by the mapper so `close()` waits
 * for it, and releases its scope when it settles. The returned promise
 * rejects with the typed error as soon as the call is aborted or its deadline
 * passes, even if the driver has not settled yet; with `settleFirst` it waits
 * for `run` instead (bulk writes, whose own error reports what was written).
 * @internal
 */
export function runOperation<R>(
  context: OperationContext,
  kind: OperationKind,
  name: string,
  options: OperationOptions | undefined,
  run: (call: CallOptions) => Promise<R>,
  mode: { readonly settleFirst?: boolean } = {},
): Promise<R> {
  let operation: RunningOperation;
  try {
    operation = startOperation(context, kind, name, options);
  } catch (err) {
    return Promise.reject(err);
  }
  if (operation.signal.aborted) {
    const error = abortError(operation.signal, name);
    operation.end(error);
    return Promise.reject(error);
  }
  let result: Promise<R>;
  try {
    result = operation.within(() => run(operation.call));
  } catch (err) {
    operation.end(err);
    return Promise.reject(err);
  }
  const settled = context.track(
    result.then(
      (value) => {
        operation.end();
        return value;
      },
      (err: unknown) => {
        operation.end(err);
        throw err;
      },
    ),
  );
  return mode.settleFirst === true ? settled : raceAbort(settled, operation, name);
}

function raceAbort<R>(settled: Promise<R>, operation: RunningOperation, name: string): Promise<R> {
  const { signal } = operation;
  if (signal.aborted) {
    settled.catch(() => undefined);
    return Promise.reject(abortError(signal, name));
  }
  return new Promise<R>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal, name));
    signal.addEventListener('abort', onAbort, { once: true });
    settled.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Splits a call's options into its {@link OperationOptions} and the rest, for
 * calls whose own options are checked strictly (bulk writes, propagate, sync).
 * @internal
 */
export function splitOperationOptions<O extends OperationOptions>(
  options: O | undefined,
): [OperationOptions, Omit<O, keyof OperationOptions>] {
  const { signal, timeoutMs, attemptTimeoutMs, idleTimeoutMs, appProfileId, ...rest } = options ?? ({} as O);
  return [{ signal, timeoutMs, attemptTimeoutMs, idleTimeoutMs, appProfileId }, rest];
}

/**
 * Checks per-call options (a `ValidationError` names a bad one) and returns
 * the ones given.
 * @internal
 */
export function checkOperationOptions(name: string, options: OperationOptions | undefined): OperationOptions {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object')
    throw new ValidationError(`${name}: options must be an object. Fix: pass e.g. { timeoutMs: 5000 }`, {
      operation: name,
    });
  const checked: OperationOptions = {};
  const signal = options.signal;
  if (signal !== undefined) {
    if (!(signal instanceof AbortSignal))
      throw new ValidationError(`${name}: signal must be an AbortSignal. Fix: pass new AbortController().signal`, {
        operation: name,
        option: 'signal',
      });
    checked.signal = signal;
  }
  for (const option of ['timeoutMs', 'attemptTimeoutMs', 'idleTimeoutMs'] as const) {
    const value = options[option];
    if (value !== undefined) checked[option] = checkTimeoutMs(option, value);
  }
  if (options.appProfileId !== undefined)
    checked.appProfileId = checkAppProfileId('appProfileId', options.appProfileId);
  return checked;
}
