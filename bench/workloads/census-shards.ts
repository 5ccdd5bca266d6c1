import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternate, ratio, sample, type Variant } from '../alternate.js';
import type { BenchContext } from '../context.js';
import { saltedDataset } from '../datasets.js';
import { startClock } from '../measure.js';
import type { ThroughputResult } from '../results.js';

/** The command line as a user runs it from a clone (`bin/bigtable-mapper.mjs`: the sources through tsx). */
const CLI = fileURLToPath(new URL('../../bin/bigtable-mapper.mjs', import.meta.url));
const ENTITIES_MODULE = fileURLToPath(new URL('../entities.ts', import.meta.url));
const TASKS = 4;

/** Runs one `census` process of the command line; resolves its JSON report. */
function runCensus(ctx: BenchContext, entities: string, env: Record<string, string>): Promise<{ rows: number }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        CLI,
        '-e',
        entities,
        '--emulator-host',
        ctx.options.emulatorHost,
        '--project',
        ctx.bigtable.projectId,
        '--instance',
        ctx.options.instance,
        '--json',
        'census',
        'SaltedEvent',
      ],
      { env: { ...process.env, ...env, METADATA_SERVER_DETECTION: 'none' }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`census failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as { rows: number });
      },
    );
  });
}

/**
 * Workload: `census` of the salted-scan table (8 buckets) as a job of 4 tasks
 * (4 processes of the command line at once, each given its task index as
 * Cloud Run Jobs gives it, so each reads 2 buckets) against one process
 * reading it all. Both are timed as whole processes, start included (about a
 * second of loading the sources through tsx each), from the first start to
 * the last exit; the 4 reports' rows must add up to the table's.
 * @example `const result = await censusShards(ctx);`
 */
export async function censusShards(ctx: BenchContext): Promise<ThroughputResult> {
  const { repeats } = ctx.options;
  ctx.log('census-shards:');
  const data = await saltedDataset(ctx);
  const dir = await mkdtemp(join(tmpdir(), 'bench-census-'));
  const entities = join(dir, 'census.entities.ts');
  await writeFile(
    entities,
    `import { defineSaltedEvent } from ${JSON.stringify(ENTITIES_MODULE)};\nexport const SaltedEvent = defineSaltedEvent(${JSON.stringify(data.saltedTableId)});\n`,
  );
  const timedJob = async (tasks: number): Promise<ReturnType<typeof sample>> => {
    const clock = startClock();
    const reports = await Promise.all(
      Array.from({ length: tasks }, (_, index) =>
        runCensus(
          ctx,
          entities,
          tasks === 1 ? {} : { CLOUD_RUN_TASK_INDEX: String(index), CLOUD_RUN_TASK_COUNT: String(tasks) },
        ),
      ),
    );
    const time = clock.stop();
    const rows = reports.reduce((n, r) => n + r.rows, 0);
    if (rows !== data.rows) throw new Error(`census of ${tasks} tasks counted ${rows} rows, expected ${data.rows}`);
    return sample(rows, time);
  };
  const variants: Variant[] = [
    {
      id: `census-${TASKS}-tasks`,
      label: `census as ${TASKS} processes (a job of ${TASKS} tasks)`,
      side: 'mapper',
      run: () => timedJob(TASKS),
    },
    { id: 'census-1-task', label: 'census as one process', side: 'mapper', run: () => timedJob(1) },
  ];
  try {
    const results = await alternate(variants, repeats, (line) => ctx.log(line));
    return {
      kind: 'throughput',
      id: 'census-shards',
      title: `census of ${data.rows.toLocaleString('en-US')} salted rows (8 buckets): ${TASKS} processes against 1, whole processes`,
      rows: data.rows,
      repeats,
      variants: results,
      ratios: [ratio(results, `census-${TASKS}-tasks`, 'census-1-task', `census, ${TASKS} processes / 1 process`)],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
