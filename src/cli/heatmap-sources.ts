import {
  checkHeatmapData,
  heatmapFromCensus,
  heatmapFromSimulation,
  type CensusRange,
  type HeatmapData,
} from '../heatmap/heatmap-data.js';
import type { Census } from '../lint/census.js';
import type { SimulationReport } from '../simulate/report.js';
import { CliUsageError } from './cli-errors.js';

/** Key-axis rows a census heatmap is folded into at most (the heatmap's own bound). */
const MAX_ROWS = 4096;

/**
 * A census as one heatmap column: a row per salt bucket for a salted entity
 * (plus the unsalted rows of a forward-only salt), else a row per key prefix.
 */
export function heatmapOfCensus(census: Census): HeatmapData {
  const ranges: CensusRange[] =
    census.buckets.length > 0
      ? census.buckets.map((b) => ({
          start: String(b.bucket),
          label: `bucket ${b.bucket}`,
          bucket: b.bucket,
          rows: b.rows,
          bytes: b.bytes,
        }))
      : census.prefixes.map((p) => ({ start: p.prefix, rows: p.rows, bytes: p.bytes }));
  if (census.buckets.length > 0 && census.unsalted.rows > 0) {
    ranges.push({ start: '(unsalted)', rows: census.unsalted.rows, bytes: census.unsalted.bytes });
  }
  if (ranges.length === 0)
    throw new CliUsageError(`the census of ${census.entity} counted no rows`, 'write some rows first');
  return heatmapFromCensus(fold(ranges), { measure: 'rows' });
}

/**
 * The heatmap of a JSON document another command printed: a `simulate` report
 * (`layout` picks one of its layouts), a `census`, or heatmap data as is.
 */
export function heatmapOfDocument(document: unknown, layout: number | string): HeatmapData {
  if (document === null || typeof document !== 'object') throw notAHeatmapSource();
  const d = document as Record<string, unknown>;
  if (Array.isArray(d.layouts)) return heatmapFromSimulation(document as SimulationReport, layout);
  if (Array.isArray(d.buckets) && Array.isArray(d.prefixes)) return heatmapOfCensus(document as Census);
  if (Array.isArray(d.timeLabels) && Array.isArray(d.counts)) {
    checkHeatmapData(document as HeatmapData);
    return document as HeatmapData;
  }
  throw notAHeatmapSource();
}

function notAHeatmapSource(): CliUsageError {
  return new CliUsageError(
    'the input is not a simulation report, a census or heatmap data',
    'give the --json output of `simulate` or `census`, or { timeLabels, keyRanges, counts }',
  );
}

function fold(ranges: CensusRange[]): CensusRange[] {
  if (ranges.length <= MAX_ROWS) return ranges;
  const size = Math.ceil(ranges.length / MAX_ROWS);
  const folded: CensusRange[] = [];
  for (let i = 0; i < ranges.length; i += size) {
    const group = ranges.slice(i, i + size);
    folded.push({
      start: group[0]!.start,
      rows: group.reduce((n, r) => n + r.rows, 0),
      bytes: group.reduce((n, r) => n + (r.bytes ?? 0), 0),
    });
  }
  return folded;
}
