/**
 * What a scenario shows, as data: the lines it prints and the facts it
 * checks, so `main.ts` can print them and tests can assert on them.
 */

/** One checked claim of a scenario. @example `{ label: 'hour scan returns 12 rows', ok: true, detail: '12' }` */
export interface Fact {
  readonly label: string;
  readonly ok: boolean;
  /** What was observed, when it helps to read the result. */
  readonly detail?: string;
}

/**
 * The result of a scenario's `run()`: printed lines (keys, plans, counts),
 * facts, and the tables it used. Scenario reports extend it with a `data`
 * object holding the raw observations.
 *
 * @example
 * ```ts
 * const report: ScenarioReport = { scenario: 'latest-events', title: 'Latest events', shown: [], facts: [], tables: ['t'], elapsedMs: 120 };
 * ```
 */
export interface ScenarioReport {
  /** Short id, as in `npm run example:<id>`. */
  readonly scenario: string;
  readonly title: string;
  /** Lines that illustrate the scenario (keys, plans, counts). */
  readonly shown: readonly string[];
  readonly facts: readonly Fact[];
  /** Tables created by the run (deleted at the end unless `keep`). */
  readonly tables: readonly string[];
  readonly elapsedMs: number;
}

/** A fact from a condition and what was observed. @example `fact('12 rows in the hour', rows === 12, `${rows}`)` */
export function fact(label: string, ok: boolean, detail?: string): Fact {
  return detail === undefined ? { label, ok } : { label, ok, detail };
}

/** Whether every fact of every report holds. @example `process.exitCode = allPassed([report]) ? 0 : 1;` */
export function allPassed(reports: readonly ScenarioReport[]): boolean {
  return reports.every((r) => r.facts.every((f) => f.ok));
}

/** Whether each string is strictly greater than the previous one (UTF-16 order, equal to byte order for ASCII). @example `isAscending(['a', 'b'])` */
export function isAscending(values: readonly string[]): boolean {
  return values.every((v, i) => i === 0 || (values[i - 1] as string) < v);
}
