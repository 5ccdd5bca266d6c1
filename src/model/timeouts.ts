import { ValidationError } from '../errors/errors.js';

/**
 * Time bounds of one kind of operation, in milliseconds.
 *
 * @example
 * ```ts
 * const bounds: TimeoutSettings = { totalMs: 60_000, attemptMs: 20_000, idleMs: 30_000 };
 * ```
 */
export interface TimeoutSettings {
  /** The whole operation, retries and backoff included; past it every RPC is cancelled and the call rejects with `DeadlineExceededError`. */
  readonly totalMs: number;
  /** One RPC attempt; an attempt past it is cancelled and, when the operation may be retried, retried. */
  readonly attemptMs: number;
  /** Reads: longest silence on a read stream before its attempt is cancelled and retried from where it stopped. */
  readonly idleMs: number;
}

/**
 * The kinds of operation that have their own {@link TimeoutSettings}:
 * `write` (save, replace, update, delete, saveIf, increment), `bulkWrite`
 * (saveMany, deleteMany, propagate's writes; `attemptMs` bounds one MutateRows
 * call), `read` (findOne, findMany), `scan` (scan, iterate, page, and
 * propagate's reads) and `admin` (sync and the table admin calls).
 *
 * @example
 * ```ts
 * const kind: OperationKind = 'scan';
 * ```
 */
export type OperationKind = 'write' | 'bulkWrite' | 'read' | 'scan' | 'admin';

/**
 * Per-kind overrides of the defaults, as given to `new BigtableMapper({ timeouts })`.
 *
 * @example
 * ```ts
 * const timeouts: TimeoutOverrides = { scan: { idleMs: 10_000 }, bulkWrite: { totalMs: 30 * 60_000 } };
 * ```
 */
export type TimeoutOverrides = { readonly [K in OperationKind]?: Partial<TimeoutSettings> };

/**
 * The defaults, close to the Java client's: a point write has 60 s in total
 * and 20 s per attempt; a bulk write 10 minutes in total and 60 s per
 * MutateRows call; a point read 60 s in total and 30 s per attempt; a scan
 * 12 hours in total (a long scan is legitimate) but fails an attempt that
 * receives nothing for 30 s; admin calls 60 s in total and 20 s per attempt.
 *
 * @example
 * ```ts
 * DEFAULT_TIMEOUTS.scan.idleMs; // 30000
 * ```
 */
export const DEFAULT_TIMEOUTS: Readonly<Record<OperationKind, TimeoutSettings>> = Object.freeze({
  write: Object.freeze({ totalMs: 60_000, attemptMs: 20_000, idleMs: 30_000 }),
  bulkWrite: Object.freeze({ totalMs: 600_000, attemptMs: 60_000, idleMs: 30_000 }),
  read: Object.freeze({ totalMs: 60_000, attemptMs: 30_000, idleMs: 30_000 }),
  scan: Object.freeze({ totalMs: 12 * 3_600_000, attemptMs: 12 * 3_600_000, idleMs: 30_000 }),
  admin: Object.freeze({ totalMs: 60_000, attemptMs: 20_000, idleMs: 30_000 }),
});

/** Longest timeout a timer can hold (about 24.8 days). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Checks one timeout value: a whole number of milliseconds from 1 to about
 * 24.8 days (the longest a timer can wait). Throws `ValidationError` naming
 * the option otherwise.
 * @internal
 */
export function checkTimeoutMs(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
    throw new ValidationError(
      `${name} must be a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, got ${typeof value === 'number' ? String(value) : typeof value}. Fix: pass e.g. ${name}: 30000`,
      { option: name },
    );
  }
  return value;
}

/**
 * The defaults with the mapper's overrides applied, every value checked.
 * @internal
 */
export function resolveTimeouts(
  overrides: TimeoutOverrides | undefined,
): Readonly<Record<OperationKind, TimeoutSettings>> {
  if (overrides === undefined) return DEFAULT_TIMEOUTS;
  if (overrides === null || typeof overrides !== 'object')
    throw new ValidationError(
      'timeouts must be an object of operation kinds. Fix: pass e.g. { scan: { idleMs: 10000 } }',
      { option: 'timeouts' },
    );
  const resolved = {} as Record<OperationKind, TimeoutSettings>;
  for (const kind of Object.keys(DEFAULT_TIMEOUTS) as OperationKind[]) {
    const given = Object.hasOwn(overrides, kind) ? overrides[kind] : undefined;
    const base = DEFAULT_TIMEOUTS[kind];
    resolved[kind] = Object.freeze({
      totalMs: given?.totalMs === undefined ? base.totalMs : checkTimeoutMs(`timeouts.${kind}.totalMs`, given.totalMs),
      attemptMs:
        given?.attemptMs === undefined ? base.attemptMs : checkTimeoutMs(`timeouts.${kind}.attemptMs`, given.attemptMs),
      idleMs: given?.idleMs === undefined ? base.idleMs : checkTimeoutMs(`timeouts.${kind}.idleMs`, given.idleMs),
    });
  }
  for (const kind of Object.keys(overrides)) {
    if (!Object.hasOwn(DEFAULT_TIMEOUTS, kind))
      throw new ValidationError(
        `timeouts.${kind} is not an operation kind. Fix: use one of ${Object.keys(DEFAULT_TIMEOUTS).join(', ')}`,
        { option: `timeouts.${kind}` },
      );
  }
  return Object.freeze(resolved);
}
