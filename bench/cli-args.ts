import { parseArgs } from 'node:util';
import { WORKLOAD_IDS, type BenchOptions, type BenchScale, type WorkloadId } from './options.js';

/** `npm run bench -- --help`. @example `console.log(USAGE)` */
export const USAGE = `Usage: npm run bench -- [options]

  --scale tiny|default   size preset (default: default, a few minutes on 2 cores)
  --rows N               rows of bulk-write, scan-hydrate, node-ceiling, salted-scan
                         and bucket-scaling (default 100000)
  --repeats N            timed runs per variant, alternated mapper/raw (default 3)
  --only W[,W...]        run only these workloads (repeatable): ${WORKLOAD_IDS.join(', ')}
  --recipe-rows N        rows of the one-row.save-per-entity recipe (default 5000)
  --point-reads N        keys read by point-reads and find-many (default 1000)
  --cpu-iterations N     entities per timed pass of the CPU workload (default 100000)
  --evenness-keys N      sequential keys of the evenness workload (default 1000000)
  --memory-rows N        rows of the peak-memory iterate check (default 1000000)
  --parallel-rows N      unsalted rows of the parallel full scan (default 1000000)
  --help                 print this and exit

Uses BIGTABLE_EMULATOR_HOST when set, else starts its own emulator.
Writes bench/results/latest.json and bench/results/latest.md.`;

/** Bench options from the command line, without the emulator (the CLI adds it); `undefined` for `--help`. @example `parseBenchArgs(['--scale', 'tiny'])` */
export function parseBenchArgs(argv: readonly string[]): Omit<BenchOptions, 'emulatorHost'> | undefined {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      scale: { type: 'string' },
      rows: { type: 'string' },
      repeats: { type: 'string' },
      only: { type: 'string', multiple: true },
      'recipe-rows': { type: 'string' },
      'point-reads': { type: 'string' },
      'cpu-iterations': { type: 'string' },
      'evenness-keys': { type: 'string' },
      'memory-rows': { type: 'string' },
      'parallel-rows': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help === true) return undefined;
  const int = (name: string, value: string | undefined): number | undefined => {
    if (value === undefined) return undefined;
    const n = Number(value.replace(/_/g, ''));
    if (!Number.isSafeInteger(n) || n < 1)
      throw new Error(`--${name} must be a positive integer, got ${JSON.stringify(value)}`);
    return n;
  };
  const scale = values.scale;
  if (scale !== undefined && scale !== 'tiny' && scale !== 'default')
    throw new Error(`--scale must be tiny or default, got ${JSON.stringify(scale)}`);
  const only = (values.only ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
  const unknown = only.filter((w) => !(WORKLOAD_IDS as readonly string[]).includes(w));
  if (unknown.length > 0)
    throw new Error(`--only: unknown workload ${unknown.join(', ')}; use ${WORKLOAD_IDS.join(', ')}`);
  const sizes = {
    rows: int('rows', values.rows),
    repeats: int('repeats', values.repeats),
    recipeRows: int('recipe-rows', values['recipe-rows']),
    pointReads: int('point-reads', values['point-reads']),
    cpuIterations: int('cpu-iterations', values['cpu-iterations']),
    evennessKeys: int('evenness-keys', values['evenness-keys']),
    memoryRows: int('memory-rows', values['memory-rows']),
    parallelRows: int('parallel-rows', values['parallel-rows']),
  };
  return {
    ...(scale === undefined ? {} : { scale: scale as BenchScale }),
    ...(only.length === 0 ? {} : { only: only as WorkloadId[] }),
    ...Object.fromEntries(Object.entries(sizes).filter(([, v]) => v !== undefined)),
  };
}
