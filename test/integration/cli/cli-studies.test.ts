import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run as runSaltedEvents } from '../../../examples/salted-events/run.js';
import { eventEntity } from '../../../examples/salted-events/event.entity.js';
import { BigtableMapper } from '../../../src/index.js';
import { bucketStudy } from '../../../src/lint/bucket-study.js';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { emulatorHost } from '../../support/emulator.js';
import { cli } from './run-cli.js';

const instance = `cli-${randomUUID().slice(0, 8)}`;
const examples = ['-e', 'examples/entities.ts'];
const connect = [...examples, '--emulator-host', emulatorHost(), '--instance', instance];
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'bigtable-mapper-cli-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('lint', () => {
  it('passes every example entity, and fails seed 001 bad key with the finding, its principle and its fix', async () => {
    const all = await cli([...examples, '--json', 'lint']);
    expect(all.code).toBe(0);
    expect(all.json()).toMatchObject({ errors: 0, warnings: 0 });

    const seed = ['-e', 'test/unit/lint/seed-001-entities.ts'];
    const bad = await cli([...seed, '--json', 'lint', 'TimeFirstReading']);
    expect(bad.code).toBe(1);
    const findings = (bad.json() as { findings: { code: string; property?: string; principle: string; fix: string }[] })
      .findings;
    expect(findings).toContainEqual(expect.objectContaining({ code: 'leading-timestamp', property: 'ts' }));
    expect(findings.find((f) => f.code === 'leading-timestamp')?.principle).toMatch(
      /^Entity id first, time after it: /,
    );

    const good = await cli([...seed, 'lint', 'SensorFirstReading']);
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('no findings');

    const text = await cli([...seed, 'lint', 'TimeFirstReading']);
    expect(text.stdout).toMatch(/error\s+leading-timestamp\s+TimeFirstReading\.ts/);
    expect(text.stdout).toContain('fix: ');
  });
});

describe('census and buckets on a table written by the salted-events example', () => {
  const schema = compileEntity(eventEntity('salted-events'));
  let countsFromKeys: ReadonlyMap<number, number>;
  let written: number;

  beforeAll(async () => {
    const report = await runSaltedEvents({
      emulatorHost: emulatorHost(),
      instance,
      table: 'salted-events',
      keep: true,
      events: 3000,
    });
    countsFromKeys = report.data.countsFromKeys;
    written = report.data.written;
  }, 120_000);

  it('census counts the rows of every bucket as bucketCounts() does, with the evenness ratio', async () => {
    const result = await cli([...connect, '--json', 'census', 'salted-events', '--heatmap', join(work, 'census.svg')]);
    expect(result.code).toBe(0);
    const census = result.json() as {
      rows: number;
      buckets: { bucket: number; rows: number; bytes: number }[];
      evenness: { rows: { min: number; max: number; ratio: number } };
      prefixes: { prefix: string; rows: number }[];
    };
    expect(census.rows).toBe(written);
    expect(new Map(census.buckets.map((b) => [b.bucket, b.rows]))).toEqual(new Map(countsFromKeys));
    const counts = [...countsFromKeys.values()];
    expect(census.evenness.rows.ratio).toBeCloseTo(Math.max(...counts) / Math.min(...counts), 6);
    expect(census.prefixes).toEqual([expect.objectContaining({ prefix: 'event', rows: written })]);
    expect(census.buckets.every((b) => b.bytes > b.rows * 30)).toBe(true);
    const svg = readFileSync(join(work, 'census.svg'), 'utf8');
    expect(svg).toMatch(/^<svg[\s\S]*bucket 9[\s\S]*<\/svg>\s*$/);
    // One moment, not a time series: bars on a linear scale, no time axis.
    expect(svg).toContain('>linear scale</text>');
    expect(svg).not.toContain('>time</text>');
  });

  it('buckets --sample reads every row once and studies the declared count like the census', async () => {
    const result = await cli([
      ...connect,
      '--json',
      'buckets',
      'salted-events',
      '--sample',
      '100000',
      '--counts',
      '5,20',
    ]);
    const study = result.json() as {
      keys: number;
      declaredBuckets: number;
      rows: { buckets: number; min: number; max: number; verdict: string }[];
    };
    expect(study.keys).toBe(written);
    expect(study.rows.map((r) => r.buckets)).toEqual([5, 20, 10]);
    const declared = study.rows.find((r) => r.buckets === 10)!;
    const counts = [...countsFromKeys.values()];
    expect([declared.min, declared.max]).toEqual([Math.min(...counts), Math.max(...counts)]);
    expect(result.code).toBe(declared.verdict === 'uneven' ? 1 : 0);
  });

  it('buckets --keys studies the keys of a file exactly as bucketStudy() does', async () => {
    const keys = Array.from({ length: 500 }, (_, i) => ({
      source: `src-${i % 37}`,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    }));
    const file = join(work, 'keys.jsonl');
    writeFileSync(file, keys.map((k) => JSON.stringify(k)).join('\n'));
    const result = await cli([...examples, '--json', 'buckets', 'salted-events', '--keys', file, '--counts', '4,8,16']);
    const expected = bucketStudy(
      schema,
      keys.map((k) => ({ source: k.source, timestamp: new Date(k.timestamp) })),
      [4, 8, 16, 10],
    );
    expect(result.json()).toEqual({ ...JSON.parse(JSON.stringify(expected)), declaredBuckets: 10 });
    const text = await cli([...examples, 'buckets', 'salted-events', '--keys', file]);
    expect(text.stdout).toMatch(/10 \(declared\)/);

    const neither = await cli([...examples, 'buckets', 'salted-events']);
    expect(neither.code).toBe(2);
  });
});

describe('census of a table with a table prefix', () => {
  it('census with --table-prefix reads the prefixed table, by either name, and shows its real name', async () => {
    const prefixed = new BigtableMapper({
      emulatorHost: emulatorHost(),
      instance,
      tablePrefix: 'cli_',
      entities: [eventEntity('salted-events')],
    });
    const Event = eventEntity('salted-events');
    try {
      await prefixed.sync();
      await prefixed.getRepository(Event).saveMany(
        Array.from({ length: 40 }, (_, i) =>
          Object.assign(new Event(), {
            source: `s${i % 3}`,
            timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
            type: 't',
          }),
        ),
      );
    } finally {
      await prefixed.close();
    }
    for (const name of ['cli_salted-events', 'salted-events']) {
      const file = join(work, `census-${name}.svg`);
      const result = await cli([...connect, '--table-prefix', 'cli_', '--json', 'census', name, '--heatmap', file]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.json()).toMatchObject({ entity: 'Event', table: 'cli_salted-events', rows: 40 });
      const svg = readFileSync(file, 'utf8');
      expect(svg).toContain('>Census of cli_salted-events</text>');
      // One moment, not a time series: bars on a linear scale, no time axis.
      expect(svg).toContain('>linear scale</text>');
      expect(svg).not.toContain('>time</text>');
    }
    const saved = join(work, 'census-cli.json');
    writeFileSync(saved, (await cli([...connect, '--table-prefix', 'cli_', '--json', 'census', 'Event'])).stdout);
    const redrawn = await cli(['heatmap', saved, '--out', join(work, 'census-again.svg')]);
    expect(redrawn.code).toBe(0);
    expect(readFileSync(join(work, 'census-again.svg'), 'utf8')).toContain('>Census of cli_salted-events</text>');
    const text = await cli([...connect, '--table-prefix', 'cli_', 'census', 'cli_salted-events']);
    expect(text.stdout).toMatch(/^Event \(table cli_salted-events\): 40 rows/);
  });
});

describe('simulate and heatmap', () => {
  const workload = {
    keys: { ts: { kind: 'sequential-time' }, sensorId: { kind: 'uniform', values: 2000 } },
    writesPerSecond: 3000,
    durationSeconds: 1200,
    seed: 3,
  };

  it('predicts that a timestamp-first key loads one node, and that salting spreads it; heatmap draws the report', async () => {
    const seed = ['-e', 'test/unit/lint/seed-001-entities.ts'];
    const svg = join(work, 'sim.svg');
    const result = await cli([
      ...seed,
      '--json',
      'simulate',
      'TimeFirstReading',
      '--workload',
      JSON.stringify(workload),
      '--salts',
      '16',
      '--heatmap',
      svg,
    ]);
    expect(result.code).toBe(0);
    const report = result.json() as {
      nodes: number;
      layouts: { label: string; summary: { meanBusiestShare: number } }[];
    };
    expect(report.nodes).toBe(3);
    expect(report.layouts).toHaveLength(2);
    expect(report.layouts[0]!.summary.meanBusiestShare).toBeGreaterThan(0.9);
    expect(report.layouts[1]!.summary.meanBusiestShare).toBeLessThan(0.5);
    expect(readFileSync(join(work, 'sim-0.svg'), 'utf8')).toContain('<svg');
    expect(readFileSync(join(work, 'sim-1.svg'), 'utf8')).toContain('<svg');

    const reportFile = join(work, 'report.json');
    writeFileSync(reportFile, result.stdout);
    const png = await cli(['--json', 'heatmap', reportFile, '--out', join(work, 'salted.png'), '--layout', '1']);
    expect(png.code).toBe(0);
    expect(png.json()).toMatchObject({ keyRanges: expect.any(Number), timeColumns: expect.any(Number) });
    expect(readFileSync(join(work, 'salted.png')).subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );

    const text = await cli([...seed, 'simulate', 'TimeFirstReading', '--workload', JSON.stringify(workload)]);
    expect(text.stdout).toMatch(/busiest node share/);

    const badFormat = await cli(['heatmap', reportFile, '--out', join(work, 'x.gif')]);
    expect(badFormat.code).toBe(2);
    const notReport = await cli(['heatmap', join(work, 'keys.jsonl'), '--out', join(work, 'x.svg')]);
    expect(notReport.code).toBe(2);
  }, 120_000);
});
