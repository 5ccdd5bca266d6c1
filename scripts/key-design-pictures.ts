/**
 * Pictures of the key-design guide: `npm run docs:pictures` simulates the
 * row-key scenarios of the seed articles with `simulateHotspots()` and writes
 * their heatmaps as PNGs to docs/images/ (fixed seeds: the same bytes every
 * run, on one platform and font set). Prints each layout's summary.
 *
 * - timestamp-first keys (bad) against the same keys salted over 8 buckets;
 * - sensor-first keys;
 * - a celebrity user taking half the writes, unsalted against salted over 8
 *   buckets.
 *
 * Each pair shares one colour scale, so the brighter picture is the hotter.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Entity, KeyPart } from '../src/index.js';
import {
  heatmapFromSimulation,
  renderHeatmap,
  simulateHotspots,
  type HeatmapData,
  type SimulationReport,
  type Workload,
} from '../src/tools.js';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'images');
const SIZE = { width: 900, height: 460 } as const;
const RUN = { writesPerSecond: 3000, durationSeconds: 1200, stepSeconds: 15, seed: 1 } as const;
const RESOLUTION = { keyRanges: 64, samplesPerStep: 1500 } as const;

@Entity({ table: 'readings_by_time' })
class TimestampFirst {
  @KeyPart(0, { type: 'timestamp' }) ts!: Date;
  @KeyPart(1, { type: 'string' }) sensorId!: string;
}

@Entity({ table: 'readings' })
class SensorFirst {
  @KeyPart(0, { type: 'string' }) sensorId!: string;
  @KeyPart(1, { type: 'timestamp' }) ts!: Date;
}

@Entity({ table: 'user_events' })
class UserEvents {
  @KeyPart(0, { type: 'string' }) userId!: string;
  @KeyPart(1, { type: 'timestamp' }) at!: Date;
}

interface Picture {
  readonly file: string;
  readonly title: string;
  readonly report: SimulationReport;
  readonly layout: string;
}

function subtitle(report: SimulationReport, label: string): string {
  const layout = report.layouts.find((l) => l.label === label);
  if (layout === undefined) throw new Error(`no layout ${label}`);
  const s = layout.summary;
  return (
    `${layout.exampleKeys[0] ?? ''}  ·  busiest of ${report.nodes} nodes: ${(s.meanBusiestShare * 100).toFixed(0)}% ` +
    `of writes (ideal ${(report.idealShare * 100).toFixed(0)}%)  ·  hottest key range: ${(s.hottestRangeShare * 100).toFixed(1)}%`
  );
}

function largest(data: readonly HeatmapData[]): number {
  return Math.max(...data.flatMap((d) => d.counts.flat()));
}

async function draw(pictures: readonly Picture[]): Promise<void> {
  const data = pictures.map((p) => heatmapFromSimulation(p.report, p.layout));
  const max = largest(data);
  for (const [i, picture] of pictures.entries()) {
    const png = await renderHeatmap(data[i] as HeatmapData, {
      format: 'png',
      title: picture.title,
      subtitle: subtitle(picture.report, picture.layout),
      max,
      ...SIZE,
    });
    writeFileSync(join(OUT, picture.file), png);
    const summary = picture.report.layouts.find((l) => l.label === picture.layout)?.summary;
    console.log(`${picture.file}: ${(png.length / 1024).toFixed(0)} KiB`, JSON.stringify(summary));
  }
}

const sensors: Workload['keys'] = { sensorId: { kind: 'uniform', values: 1000 }, ts: { kind: 'sequential-time' } };
const timestampFirst = simulateHotspots({
  entity: TimestampFirst,
  workload: { ...RUN, keys: sensors },
  alternatives: [{ salt: { buckets: 8 } }],
  ...RESOLUTION,
});
const sensorFirst = simulateHotspots({
  entity: SensorFirst,
  workload: { ...RUN, keys: sensors },
  ...RESOLUTION,
});
const celebrity = simulateHotspots({
  entity: UserEvents,
  workload: {
    ...RUN,
    keys: { userId: { kind: 'celebrity', share: 0.5, entities: 10_000 }, at: { kind: 'sequential-time' } },
  },
  alternatives: [{ salt: { buckets: 8 } }],
  ...RESOLUTION,
});

mkdirSync(OUT, { recursive: true });
await draw([
  { file: 'timestamp-first.png', title: 'Timestamp first: ts#sensorId', report: timestampFirst, layout: 'declared' },
  {
    file: 'timestamp-first-salted.png',
    title: 'Salted over 8 buckets: bucket#ts#sensorId',
    report: timestampFirst,
    layout: 'salt 8',
  },
]);
await draw([{ file: 'sensor-first.png', title: 'Sensor first: sensorId#ts', report: sensorFirst, layout: 'declared' }]);
await draw([
  {
    file: 'celebrity-unsalted.png',
    title: 'A celebrity user, unsalted: userId#at',
    report: celebrity,
    layout: 'declared',
  },
  {
    file: 'celebrity-salted.png',
    title: 'The celebrity salted over 8 buckets: bucket#userId#at',
    report: celebrity,
    layout: 'salt 8',
  },
]);
