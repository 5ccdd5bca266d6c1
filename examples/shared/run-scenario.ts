/**
 * The frame every scenario runs in: open a mapper, create the tables, run the
 * body while recording shown lines and facts, then delete the tables (unless
 * `keep`) and close the mapper.
 */
import type { BigtableMapper, Constructor } from '../../src/index.js';
import { fact, type Fact, type ScenarioReport } from './scenario-report.js';
import { openMapper, type ScenarioOptions } from './scenario-options.js';

/** Collects what a scenario shows and checks. @example `out.check('12 rows in the hour', rows === 12, String(rows));` */
export interface ScenarioRecorder {
  /** Records a line to print (a key, a plan, a count). */
  show(line: string): void;
  /** Records a fact; returns `ok` so callers can branch on it. */
  check(label: string, ok: boolean, detail?: string): boolean;
}

/** Identity of a scenario and the entities whose tables it creates. @example `{ scenario: 'latest-events', title: 'Latest events first', entities: [CustomerEvent] }` */
export interface ScenarioSpec {
  readonly scenario: string;
  readonly title: string;
  readonly entities: readonly Constructor[];
}

/**
 * Runs a scenario body and returns its report, with the body's result as
 * `data`. Tables are created by `mapper.sync()` first and deleted at the end
 * unless `options.keep`, even when the body throws.
 *
 * @example
 * ```ts
 * return runScenario(options, { scenario: 'x', title: 'X', entities: [E] }, async (mapper, out) => { out.check('ok', true); return {}; });
 * ```
 */
export async function runScenario<D>(
  options: ScenarioOptions,
  spec: ScenarioSpec,
  body: (mapper: BigtableMapper, out: ScenarioRecorder) => Promise<D>,
): Promise<ScenarioReport & { readonly data: D }> {
  const started = performance.now();
  const mapper = openMapper(options, [...spec.entities]);
  const tables = [...new Set(spec.entities.map((e) => mapper.register(e).table))];
  const shown: string[] = [];
  const facts: Fact[] = [];
  const out: ScenarioRecorder = {
    show: (line) => void shown.push(line),
    check: (label, ok, detail) => (facts.push(fact(label, ok, detail)), ok),
  };
  try {
    await mapper.sync();
    const data = await body(mapper, out);
    return {
      scenario: spec.scenario,
      title: spec.title,
      shown,
      facts,
      tables,
      elapsedMs: Math.round(performance.now() - started),
      data,
    };
  } finally {
    try {
      if (options.keep !== true) for (const table of tables) await dropTable(mapper, table);
    } finally {
      await mapper.close();
    }
  }
}

async function dropTable(mapper: BigtableMapper, table: string): Promise<void> {
  try {
    await mapper.driver.deleteTable({ table });
  } catch (err) {
    console.warn(
      `could not delete table "${table}" (delete it by hand): ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
