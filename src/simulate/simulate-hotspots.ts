import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';
import type { KeySchema } from '../key/logical-key.js';
import { encodeRowKey } from '../key/physical-key.js';
import { compileEntity } from '../metadata/compile-entity.js';
import type { Constructor } from '../model/declarations.js';
import { resolveCluster, type ClusterModel, type ResolvedCluster } from './cluster-model.js';
import { valueSource, type ValueSource } from './key-generators.js';
import { partitionKeys, type KeyPartition } from './key-partition.js';
import { layoutsOf, type Layout, type LayoutAlternative } from './layouts.js';
import { seededRandom } from './random.js';
import type { LayoutReport, SimulationReport, SimulationStep } from './report.js';
import { summarize } from './summary.js';
import { TabletTable } from './tablets.js';
import { resolveWorkload, type ResolvedWorkload, type Workload } from './workload.js';

/**
 * What {@link simulateHotspots} simulates.
 *
 * @example
 * ```ts
 * const params: SimulateHotspotsParams = {
 *   entity: Reading,
 *   workload: { keys: { sensorId: { kind: 'uniform', values: 5000 }, ts: { kind: 'sequential-time' } }, writesPerSecond: 4000, durationSeconds: 1800 },
 *   alternatives: [{ salt: { buckets: 8 } }],
 * };
 * ```
 */
export interface SimulateHotspotsParams {
  /** The entity class, or its compiled schema (any `{ name, key }` from `compileEntity`). */
  readonly entity: Constructor | KeySchema;
  /** The writes to simulate. */
  readonly workload: Workload;
  /** The simulated cluster. Default: 3 nodes and the defaults of {@link ClusterModel}. */
  readonly cluster?: ClusterModel;
  /** Layouts simulated beside the declared one, with the same writes. */
  readonly alternatives?: readonly LayoutAlternative[];
  /** Rows of the heatmap's key axis (ranges of the key space), 1 to 1,024. Default 128. */
  readonly keyRanges?: number;
  /** Keys generated per step; each stands for `writes in the step / samples` writes. 1 to 100,000. Default 500. */
  readonly samplesPerStep?: number;
  /** Called after every simulated step of every layout with the steps done and the steps in all (for a progress bar). */
  readonly onProgress?: (done: number, total: number) => void;
}

const PILOT_KEYS = 4096;
const EXAMPLE_KEYS = 5;

/**
 * Simulates a write workload against a model of Bigtable's tablets and nodes,
 * for the entity's declared key layout and each alternative, with keys
 * encoded by the library's own encoder (so salting matches `save()` exactly).
 * Pure and deterministic: the same parameters and seed give the same report.
 * Throws `ValidationError` for a bad workload or option, `MetadataError` for a
 * bad alternative salt, `KeyEncodingError` when a generated value does not fit
 * a key part.
 *
 * @example
 * ```ts
 * const report = simulateHotspots({
 *   entity: Reading,
 *   workload: {
 *     keys: { ts: { kind: 'sequential-time' }, sensorId: { kind: 'uniform', values: 5000 } },
 *     writesPerSecond: 4000,
 *     durationSeconds: 1800,
 *     seed: 1,
 *   },
 *   alternatives: [{ salt: { buckets: 8 } }],
 * });
 * report.layouts[0].summary.meanBusiestShare; // ~1: one node takes every write
 * ```
 */
export function simulateHotspots(params: SimulateHotspotsParams): SimulationReport {
  if (params === null || typeof params !== 'object') {
    throw new ValidationError(`simulateHotspots needs { entity, workload }, got ${preview(params)}. Fix: pass both.`);
  }
  const schema = keySchemaOf(params.entity);
  const workload = resolveWorkload(params.workload, schema.key.properties, schema.name);
  const cluster = resolveCluster(params.cluster, workload.durationSeconds, workload.rampSeconds);
  const keyRanges = option('keyRanges', params.keyRanges, 128, 1024);
  const samplesPerStep = option('samplesPerStep', params.samplesPerStep, 500, 100_000);
  const layouts = layoutsOf(schema, params.alternatives);
  const total = layouts.length * workload.steps;
  const reports = layouts.map((layout, i) =>
    simulateLayout(layout, workload, cluster, keyRanges, samplesPerStep, (step) =>
      params.onProgress?.(i * workload.steps + step, total),
    ),
  );
  let writes = 0;
  for (let step = 0; step < workload.steps; step++) writes += writesIn(workload, step);
  return {
    entity: schema.name,
    nodes: cluster.nodes,
    idealShare: 1 / cluster.nodes,
    stepSeconds: workload.stepSeconds,
    warmupSeconds: cluster.warmupSeconds,
    writes: Math.round(writes),
    layouts: reports,
  };
}

function keySchemaOf(entity: Constructor | KeySchema): KeySchema {
  if (typeof entity === 'function') return compileEntity(entity);
  if (entity === null || typeof entity !== 'object' || !Array.isArray(entity.key?.components)) {
    throw new ValidationError(
      `simulateHotspots entity must be an entity class or its compiled schema, got ${preview(entity)}. Fix: pass the class, or compileEntity(Class).`,
    );
  }
  return entity;
}

function option(name: string, value: number | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new ValidationError(
      `simulateHotspots ${name} must be an integer from 1 to ${max}, got ${preview(value)}. Fix: give one in that range, or omit it for ${fallback}.`,
    );
  }
  return value;
}

/** The writes of one layout, step by step. Every layout draws the same logical keys (same seed, same stream). */
function simulateLayout(
  layout: Layout,
  workload: ResolvedWorkload,
  cluster: ResolvedCluster,
  keyRanges: number,
  samplesPerStep: number,
  stepDone: (steps: number) => void,
): LayoutReport {
  const { schema } = layout;
  const sources = sourcesOf(schema, workload);
  const partition = pilotPartition(schema, sources, workload, keyRanges);
  const table = new TabletTable(cluster);
  const random = seededRandom(workload.seed, 1);
  const steps: SimulationStep[] = [];
  const rangeOps: number[][] = [];
  const exampleKeys: string[] = [];
  for (let step = 0; step < workload.steps; step++) {
    const start = step * workload.stepSeconds;
    const end = Math.min(workload.durationSeconds, start + workload.stepSeconds);
    const writes = writesIn(workload, step);
    const samples = Math.max(1, Math.min(samplesPerStep, Math.ceil(writes)));
    const weight = writes / samples;
    const counts = new Array<number>(partition.ranges.length).fill(0);
    for (let i = 0; i < samples; i++) {
      const elapsedMs = (start + ((i + 0.5) / samples) * (end - start)) * 1000;
      const key = encodeKey(schema, sources, random, elapsedMs);
      if (exampleKeys.length < EXAMPLE_KEYS) exampleKeys.push(key.toString('utf8'));
      table.record(key, weight, workload.rowBytes);
      const range = partition.indexOf(key);
      counts[range] = (counts[range] as number) + weight;
    }
    const { nodeOps, tablets } = table.endStep(end - start);
    const total = nodeOps.reduce((a, b) => a + b, 0);
    const nodeShares = nodeOps.map((ops) => round(total > 0 ? ops / total : 0, 4));
    steps.push({
      time: round(end, 3),
      writes: round(writes, 2),
      tablets,
      busiestShare: Math.max(...nodeShares),
      nodeShares,
    });
    rangeOps.push(counts.map((c) => round(c, 2)));
    stepDone(step + 1);
  }
  const salt = schema.key.salt;
  return {
    label: layout.label,
    salt: salt === undefined ? null : { buckets: salt.buckets, on: [...salt.on] },
    exampleKeys,
    summary: summarize(steps, rangeOps, partition.ranges, workload.stepSeconds, cluster),
    steps,
    keyRanges: partition.ranges,
    rangeOps,
  };
}

type Sources = readonly (readonly [string, ValueSource])[];

function sourcesOf(schema: KeySchema, workload: ResolvedWorkload): Sources {
  return schema.key.components.flatMap((c) =>
    c.kind === 'property'
      ? [
          [
            c.property,
            valueSource(c.property, c.codec.type, workload.keys[c.property] as never, workload.seed),
          ] as const,
        ]
      : [],
  );
}

function encodeKey(
  schema: KeySchema,
  sources: Sources,
  random: ReturnType<typeof seededRandom>,
  elapsedMs: number,
): Buffer {
  const values: Record<string, unknown> = {};
  for (const [property, source] of sources) values[property] = source(random, elapsedMs);
  return encodeRowKey(schema, values).key;
}

/**
 * The key axis of a layout's heatmap, from keys drawn at random times over
 * the whole run (a separate random stream, so the simulated writes do not
 * depend on it).
 */
function pilotPartition(
  schema: KeySchema,
  sources: Sources,
  workload: ResolvedWorkload,
  keyRanges: number,
): KeyPartition {
  const random = seededRandom(workload.seed, 2);
  const keys: string[] = [];
  for (let i = 0; i < PILOT_KEYS; i++) {
    const elapsedMs = random.next() * workload.durationSeconds * 1000;
    keys.push(encodeKey(schema, sources, random, elapsedMs).toString('utf8'));
  }
  return partitionKeys(keys, schema, keyRanges);
}

/** Writes in a step: the rate integrated over the step, rising linearly during the ramp. */
function writesIn(workload: ResolvedWorkload, step: number): number {
  const { writesPerSecond, rampSeconds, stepSeconds, durationSeconds } = workload;
  const start = step * stepSeconds;
  const end = Math.min(durationSeconds, start + stepSeconds);
  const ramped = (t: number): number =>
    rampSeconds <= 0 ? t : t <= rampSeconds ? (t * t) / (2 * rampSeconds) : t - rampSeconds / 2;
  return writesPerSecond * (ramped(end) - ramped(start));
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
