import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import type { KeyRangeSpec } from '../simulate/key-partition.js';
import type { SimulationReport } from '../simulate/report.js';

/**
 * What a heatmap shows, whatever produced it (a simulation, a census of the
 * table, a captured workload): `counts[time][range]` operations (or rows, or
 * bytes) for each time column and key range. Plain JSON.
 *
 * @example
 * ```ts
 * const data: HeatmapData = {
 *   timeLabels: ['0s', '10s'],
 *   keyRanges: [{ label: '00#a', start: '00#a', bucket: 0 }, { label: '01#a', start: '01#a', bucket: 1 }],
 *   counts: [[5, 1], [7, 0]],
 *   unit: 'writes',
 * };
 * ```
 */
export interface HeatmapData {
  /** One label per time column (x axis), oldest first. */
  readonly timeLabels: readonly string[];
  /** One range per row of the key axis (y axis), in key order. */
  readonly keyRanges: readonly KeyRangeSpec[];
  /** `counts[time][range]`: non-negative, one row per time label, one entry per key range. */
  readonly counts: readonly (readonly number[])[];
  /** What is counted, for the legend. Default `operations`. */
  readonly unit?: string;
}

/**
 * One key range of a census: how many rows (and bytes) the table holds from
 * `start` to the next range's start.
 *
 * @example
 * ```ts
 * const range: CensusRange = { start: '03#', label: 'bucket 03', bucket: 3, rows: 120_000, bytes: 96_000_000 };
 * ```
 */
export interface CensusRange {
  /** First physical key of the range, as text. */
  readonly start: string;
  /** Text shown on the key axis. Default: `start`. */
  readonly label?: string;
  /** The salt bucket of the range, when salted. */
  readonly bucket?: number;
  /** Rows in the range. */
  readonly rows: number;
  /** Bytes in the range, when known. */
  readonly bytes?: number;
}

/** Bounds on a heatmap's size, so a hostile or mistaken input cannot make a huge image. */
const MAX_COLUMNS = 4096;
const MAX_RANGES = 4096;

/**
 * The heatmap of one layout of a simulation report: a column per step (its end
 * time as the label), a row per key range, writes per cell.
 *
 * @example
 * ```ts
 * const svg = renderHeatmap(heatmapFromSimulation(report, 'salt 8'), { format: 'svg', title: 'Salted over 8 buckets' });
 * ```
 */
export function heatmapFromSimulation(report: SimulationReport, layout: number | string = 0): HeatmapData {
  const found = typeof layout === 'number' ? report.layouts[layout] : report.layouts.find((l) => l.label === layout);
  if (found === undefined) {
    throw new ValidationError(
      `heatmapFromSimulation: the report has no layout ${preview(layout)}. Fix: pass an index below ${report.layouts.length} or one of ${report.layouts.map((l) => JSON.stringify(l.label)).join(', ')}.`,
      { layout: preview(layout) },
    );
  }
  return {
    timeLabels: found.steps.map((s) => formatSeconds(s.time)),
    keyRanges: found.keyRanges,
    counts: found.rangeOps,
    unit: 'writes',
  };
}

/**
 * A census (rows or bytes per key range, e.g. from a table scan or the
 * bucket-count study) as a heatmap of one time column.
 *
 * @example
 * ```ts
 * const data = heatmapFromCensus([{ start: '00#', rows: 10 }, { start: '01#', rows: 12 }], { measure: 'rows' });
 * ```
 */
export function heatmapFromCensus(
  census: readonly CensusRange[],
  options: { readonly measure?: 'rows' | 'bytes'; readonly timeLabel?: string } = {},
): HeatmapData {
  const measure = options.measure ?? 'rows';
  if (!Array.isArray(census) || census.length === 0 || census.length > MAX_RANGES) {
    throw new ValidationError(
      `heatmapFromCensus needs 1 to ${MAX_RANGES} ranges, got ${preview(census)}. Fix: pass the census ranges in key order.`,
    );
  }
  const column = census.map((range, i) => {
    const value = measure === 'rows' ? range.rows : range.bytes;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new ValidationError(
        `heatmapFromCensus: census[${i}].${measure} must be a non-negative number, got ${preview(value)}. Fix: give every range its ${measure}, or use measure: 'rows'.`,
      );
    }
    return value;
  });
  return {
    timeLabels: [options.timeLabel ?? 'census'],
    keyRanges: census.map((r) => {
      const label = r.label ?? r.start;
      return r.bucket === undefined ? { label, start: r.start } : { label, start: r.start, bucket: r.bucket };
    }),
    counts: [column],
    unit: measure,
  };
}

/**
 * Checks a heatmap's shape: labels are strings, `counts` has one row per time
 * label and one finite non-negative number per key range, within the size
 * bounds. Throws `ValidationError` naming the field and the fix.
 * @internal
 */
export function checkHeatmapData(data: HeatmapData): void {
  const bad = (field: string, problem: string, fix: string): never => {
    throw new ValidationError(`HeatmapData.${field} ${problem}. Fix: ${fix}.`, { field });
  };
  if (data === null || typeof data !== 'object')
    bad('', `must be an object, got ${preview(data)}`, 'pass { timeLabels, keyRanges, counts }');
  const { timeLabels, keyRanges, counts } = data;
  if (!Array.isArray(timeLabels) || timeLabels.length === 0 || timeLabels.length > MAX_COLUMNS)
    bad('timeLabels', `must list 1 to ${MAX_COLUMNS} labels`, 'give one label per time column');
  if (!Array.isArray(keyRanges) || keyRanges.length === 0 || keyRanges.length > MAX_RANGES)
    bad('keyRanges', `must list 1 to ${MAX_RANGES} ranges`, 'give one range per key-axis row');
  keyRanges.forEach((r, i) => {
    if (r === null || typeof r !== 'object' || typeof r.label !== 'string')
      bad(`keyRanges[${i}]`, `must be { label, start }, got ${preview(r)}`, 'give each range a text label');
  });
  if (!Array.isArray(counts) || counts.length !== timeLabels.length)
    bad('counts', `must have one row per time label (${timeLabels.length})`, 'index counts as counts[time][range]');
  counts.forEach((row, t) => {
    if (!Array.isArray(row) || row.length !== keyRanges.length)
      bad(
        `counts[${t}]`,
        `must have one entry per key range (${keyRanges.length})`,
        'index counts as counts[time][range]',
      );
    for (const value of row)
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
        bad(`counts[${t}]`, `holds ${preview(value)}`, 'give finite non-negative counts');
  });
}

/** Seconds as a short axis label: `45s`, `12m`, `1h30m`. */
function formatSeconds(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)}s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes}m`;
  return `${Math.floor(minutes / 60)}h${minutes % 60 === 0 ? '' : `${minutes % 60}m`}`;
}
