import type { BigtableDriver, CallOptions } from '../model/driver.js';
import { BigtableMapperError } from '../errors/bigtable-mapper-error.js';

/**
 * What `mapper.health()` found: `healthy` when every registered table
 * answered a one-row read (or, with no table registered, the instance
 * answered a table listing), each table's outcome, and how long the check
 * took. A failure is described by its error code and message; no row key or
 * value is included.
 *
 * @example
 * ```ts
 * const report: HealthReport = { healthy: false, ms: 12, tables: [{ table: 'readings', healthy: false, code: 'TABLE_NOT_FOUND', message: '…' }] };
 * ```
 * @inline
 */
export interface HealthReport {
  /** Every check answered. */
  readonly healthy: boolean;
  /** Milliseconds the whole check took. */
  readonly ms: number;
  /** One entry per registered table (the instance itself when none is registered, as table `''`). */
  readonly tables: readonly {
    /** The table as the entities name it (without the mapper's `tablePrefix`). */
    readonly table: string;
    /** The read (or listing) answered. */
    readonly healthy: boolean;
    /** The error's code when it failed (`TABLE_NOT_FOUND`, `UNREACHABLE`, `DEADLINE_EXCEEDED`, …). */
    readonly code?: string;
    /** The error's message when it failed. */
    readonly message?: string;
  }[];
}

type TableHealth = HealthReport['tables'][number];

/** Tables checked at once: a readiness probe should not open a read per table of a large schema in one go. */
const CONCURRENCY = 8;

/**
 * Checks that Bigtable answers for each table: a read of at most one row,
 * so the data endpoint, the table's existence and the read permission are
 * all tested; with no table, a table listing tests the instance. Never
 * rejects: every failure, the call's deadline and abort included, is a
 * table's outcome.
 * @internal
 */
export async function checkHealth(
  driver: BigtableDriver,
  tables: readonly string[],
  call: CallOptions,
): Promise<HealthReport> {
  const startedAt = Date.now();
  const checks: (() => Promise<TableHealth>)[] =
    tables.length === 0
      ? [() => outcome('', () => driver.listTables({}, call))]
      : tables.map((table) => () => outcome(table, () => readOneRow(driver, table, call)));
  const results: TableHealth[] = [];
  for (let start = 0; start < checks.length; start += CONCURRENCY)
    results.push(...(await Promise.all(checks.slice(start, start + CONCURRENCY).map((check) => check()))));
  return { healthy: results.every((r) => r.healthy), ms: Date.now() - startedAt, tables: results };
}

/**
 * The report of a check that could not start (its signal had already
 * aborted): every table unhealthy with that error.
 * @internal
 */
export function unansweredReport(tables: readonly string[], error: unknown): HealthReport {
  const names = tables.length === 0 ? [''] : tables;
  return { healthy: false, ms: 0, tables: names.map((table) => failed(table, error)) };
}

async function readOneRow(driver: BigtableDriver, table: string, call: CallOptions): Promise<void> {
  const rows = driver.readRows({ table, limit: 1 }, call);
  try {
    while ((await rows.next()).done !== true);
  } finally {
    rows.cancel();
  }
}

async function outcome(table: string, check: () => Promise<unknown>): Promise<TableHealth> {
  try {
    await check();
    return { table, healthy: true };
  } catch (error) {
    return failed(table, error);
  }
}

function failed(table: string, error: unknown): TableHealth {
  const code = error instanceof BigtableMapperError ? error.code : 'UNKNOWN';
  const message = error instanceof Error ? error.message : String(error);
  return { table, healthy: false, code, message };
}
