/** Workload ids, in the order the bench runs them. @example `WORKLOAD_IDS.includes('scan-hydrate')` */
export const WORKLOAD_IDS = [
  'bulk-write',
  'bulk-writer',
  'bulk-writer-memory',
  'scan-hydrate',
  'node-ceiling',
  'salted-scan',
  'bucket-scaling',
  'point-reads',
  'find-many',
  'collection-read',
  'telemetry-overhead',
  'cpu',
  'evenness',
  'memory',
  'parallel-scan',
  'census-shards',
] as const;

/** One workload id. @example `const id: WorkloadId = 'bulk-write';` */
export type WorkloadId = (typeof WORKLOAD_IDS)[number];

/** Preset sizes: `default` finishes in a few minutes on 2 cores; `tiny` is for smoke tests. @example `'tiny'` */
export type BenchScale = 'tiny' | 'default';

/** Sizes of every workload. @example `SCALES.default.rows // 100000` */
export interface BenchSizes {
  /** Rows written and scanned by bulk-write, scan-hydrate, node-ceiling, salted-scan and bucket-scaling. */
  readonly rows: number;
  /** Rows of the seeds' one-`row.save`-per-entity recipe (it is slow). */
  readonly recipeRows: number;
  /** Timed runs per variant, alternated between mapper and raw. */
  readonly repeats: number;
  /** Untimed rows each variant runs once before the timed runs (JIT, channel, caches). */
  readonly warmupRows: number;
  /** Keys read one by one in point-reads, and by one `findMany` (and the raw loop it is compared with) in find-many. */
  readonly pointReads: number;
  /** Entities per measured loop of the CPU-only workload. */
  readonly cpuIterations: number;
  /** Sequential logical keys hashed by the evenness workload. */
  readonly evennessKeys: number;
  /** Rows of the peak-memory iterate check and of the BulkWriter back-pressure run. */
  readonly memoryRows: number;
  /** Unsalted rows of the parallel full scan (`parallelism` 1, 2, 4, 8 against one raw stream). */
  readonly parallelRows: number;
}

/** The preset sizes. @example `SCALES.tiny.rows // 300` */
export const SCALES: Readonly<Record<BenchScale, BenchSizes>> = Object.freeze({
  default: {
    rows: 100_000,
    recipeRows: 5_000,
    repeats: 3,
    warmupRows: 2_000,
    pointReads: 1_000,
    cpuIterations: 100_000,
    evennessKeys: 1_000_000,
    memoryRows: 1_000_000,
    parallelRows: 1_000_000,
  },
  tiny: {
    rows: 300,
    recipeRows: 60,
    repeats: 1,
    warmupRows: 20,
    pointReads: 40,
    cpuIterations: 300,
    evennessKeys: 2_000,
    memoryRows: 1_000,
    parallelRows: 400,
  },
});

/** Options of {@link runBench}: the emulator to use, a scale and per-size overrides. @example `{ emulatorHost: '127.0.0.1:8086', scale: 'tiny' }` */
export interface BenchOptions extends Partial<BenchSizes> {
  /** Loopback `HOST:PORT` of a running emulator. */
  readonly emulatorHost: string;
  /** Bigtable instance id (any id works on the emulator). Default `bench`. */
  readonly instance?: string;
  /** Prefix of every table the bench creates (a unique suffix is added). Default `bench`. */
  readonly tablePrefix?: string;
  /** Size preset; explicit sizes override it. Default `default`. */
  readonly scale?: BenchScale;
  /** Run only these workloads. Default: all. */
  readonly only?: readonly WorkloadId[];
  /** How the report names the emulator (never a path). Default `cbtemulator`. */
  readonly emulatorLabel?: string;
  /** Progress lines. Default: none. */
  readonly log?: (line: string) => void;
}

/** Options with every default applied. @example `resolveOptions({ emulatorHost }).rows` */
export interface ResolvedOptions extends BenchSizes {
  readonly emulatorHost: string;
  readonly instance: string;
  readonly tablePrefix: string;
  readonly scale: BenchScale;
  readonly only: readonly WorkloadId[];
  readonly emulatorLabel: string;
  readonly log: (line: string) => void;
}

/** Applies the scale preset and defaults, and checks every size is a positive integer. @example `resolveOptions({ emulatorHost, scale: 'tiny', rows: 500 })` */
export function resolveOptions(options: BenchOptions): ResolvedOptions {
  const scale = options.scale ?? 'default';
  const preset = SCALES[scale];
  if (preset === undefined) throw new Error(`unknown scale ${JSON.stringify(scale)}: use tiny or default`);
  const sizes = { ...preset };
  for (const key of Object.keys(preset) as (keyof BenchSizes)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1)
      throw new Error(`${key} must be a positive integer, got ${String(value)}`);
    sizes[key] = value;
  }
  for (const id of options.only ?? []) {
    if (!(WORKLOAD_IDS as readonly string[]).includes(id))
      throw new Error(`unknown workload ${JSON.stringify(id)}: use one of ${WORKLOAD_IDS.join(', ')}`);
  }
  return {
    ...sizes,
    emulatorHost: options.emulatorHost,
    instance: options.instance ?? 'bench',
    tablePrefix: options.tablePrefix ?? 'bench',
    scale,
    only: options.only !== undefined && options.only.length > 0 ? [...options.only] : [...WORKLOAD_IDS],
    emulatorLabel: options.emulatorLabel ?? 'cbtemulator',
    log: options.log ?? (() => undefined),
  };
}
