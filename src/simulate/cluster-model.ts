import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';

/**
 * The parameters of the simulated Bigtable cluster. Every field has a
 * default; the model is explained in the key-design tools guide
 * (`## Hotspot simulator`).
 *
 * @example
 * ```ts
 * const cluster: ClusterModel = { nodes: 3, hotOpsPerSecond: 500, rebalanceIntervalSeconds: 30 };
 * ```
 */
export interface ClusterModel {
  /** Nodes serving the table. Default 3. */
  readonly nodes?: number;
  /** A tablet splits when it holds more bytes than this. Default 512 MiB. */
  readonly splitSizeBytes?: number;
  /** A tablet splits when its load (writes per second, averaged over `loadWindowSeconds`) is above this. Default 1,000. */
  readonly hotOpsPerSecond?: number;
  /** Time constant of the load average that split and rebalance decisions read. Default 60 s. */
  readonly loadWindowSeconds?: number;
  /** How often tablets are moved from the busiest node to the least busy one. Default 60 s. */
  readonly rebalanceIntervalSeconds?: number;
  /** Tablet moves per rebalance at most. Default 8. */
  readonly maxMovesPerRebalance?: number;
  /** Tablet splits per time step at most. Default 8. */
  readonly maxSplitsPerStep?: number;
  /** The table never has more tablets than this (it bounds the model's memory). Default 1,000, at most 10,000. */
  readonly maxTablets?: number;
  /** Steps before this time are left out of the summary. Default: the ramp, or a quarter of the run if longer. */
  readonly warmupSeconds?: number;
}

/** A cluster model with every default filled in. @internal */
export type ResolvedCluster = { readonly [K in keyof ClusterModel]-?: number };

/** Fills in the defaults and checks ranges; throws `ValidationError` naming `ClusterModel.<field>`. @internal */
export function resolveCluster(
  cluster: ClusterModel | undefined,
  durationSeconds: number,
  rampSeconds: number,
): ResolvedCluster {
  const c = cluster ?? {};
  if (c === null || typeof c !== 'object') {
    throw new ValidationError(`ClusterModel must be an object, got ${preview(c)}. Fix: pass { nodes: 3 } or omit it.`);
  }
  return {
    nodes: field('nodes', c.nodes, 3, 1, 1000, true),
    splitSizeBytes: field('splitSizeBytes', c.splitSizeBytes, 512 * 2 ** 20, 1, 2 ** 50),
    hotOpsPerSecond: field('hotOpsPerSecond', c.hotOpsPerSecond, 1000, 1e-3, 1e12),
    loadWindowSeconds: field('loadWindowSeconds', c.loadWindowSeconds, 60, 1e-3, 1e7),
    rebalanceIntervalSeconds: field('rebalanceIntervalSeconds', c.rebalanceIntervalSeconds, 60, 1e-3, 1e7),
    maxMovesPerRebalance: field('maxMovesPerRebalance', c.maxMovesPerRebalance, 8, 0, 10_000, true),
    maxSplitsPerStep: field('maxSplitsPerStep', c.maxSplitsPerStep, 8, 0, 10_000, true),
    maxTablets: field('maxTablets', c.maxTablets, 1000, 1, 10_000, true),
    warmupSeconds: field(
      'warmupSeconds',
      c.warmupSeconds,
      Math.max(rampSeconds, durationSeconds / 4),
      0,
      Math.max(0, durationSeconds - 1e-9),
    ),
  };
}

function field(name: string, value: unknown, fallback: number, min: number, max: number, integer = false): number {
  if (value === undefined) return fallback;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    throw new ValidationError(
      `ClusterModel.${name} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}, got ${preview(value)}. Fix: give a value in that range, or omit it for the default ${fallback}.`,
      { field: name, value: preview(value) },
    );
  }
  return value;
}
