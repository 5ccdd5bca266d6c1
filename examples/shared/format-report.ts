/**
 * Text forms of scenario reports: the full one printed by each example, and
 * the short one of the demo.
 */
import type { Fact, ScenarioReport } from './scenario-report.js';

/** `✓ label (detail)` or `✗ label (detail)`. @example `formatFact({ label: 'ordered', ok: true }) // '✓ ordered'` */
export function formatFact(f: Fact): string {
  return `${f.ok ? '✓' : '✗'} ${f.label}${f.detail === undefined ? '' : ` (${f.detail})`}`;
}

/**
 * The full report of one example: title, the lines it shows, then its facts.
 *
 * @example
 * ```ts
 * console.log(formatReport(report).join('\n'));
 * ```
 */
export function formatReport(report: ScenarioReport): string[] {
  return [
    `== ${report.title} (${report.elapsedMs} ms, tables: ${report.tables.join(', ')})`,
    ...report.shown.map((line) => `  ${line}`),
    '',
    ...report.facts.map((f) => `  ${formatFact(f)}`),
  ];
}

/**
 * The demo's short form: title with the number of facts that failed, the
 * first line the scenario shows, then its facts.
 *
 * @example
 * ```ts
 * for (const line of formatSummary(report)) console.log(line);
 * ```
 */
export function formatSummary(report: ScenarioReport): string[] {
  const failed = report.facts.filter((f) => !f.ok).length;
  const status =
    failed === 0 ? `${report.facts.length} facts hold` : `${failed} of ${report.facts.length} facts FAILED`;
  const headline = report.shown.slice(0, 1).map((line) => `  · ${line}`);
  return [
    `${report.title}: ${status}, ${(report.elapsedMs / 1000).toFixed(1)} s`,
    ...headline,
    ...report.facts.map((f) => `  ${formatFact(f)}`),
  ];
}
