import type { ResolvedCluster } from './cluster-model.js';

/** Recent keys kept per tablet: where it splits. */
const RECENT_KEYS = 32;

/** One tablet: a contiguous range of row keys from `start` to the next tablet's start. */
interface Tablet {
  readonly start: Buffer;
  node: number;
  sizeBytes: number;
  /** Writes per second, averaged over the load window. */
  load: number;
  /** Writes in the current step. */
  stepOps: number;
  /** The last sampled keys written to it, a ring of at most {@link RECENT_KEYS}. */
  recent: Buffer[];
  recentNext: number;
}

/** What one step did: writes served by each node, and the tablet count at the end of the step. @internal */
export interface StepLoad {
  readonly nodeOps: number[];
  readonly tablets: number;
}

/**
 * The simulated table: tablets as sorted split points, each with a size, a
 * load average, its node and a few recent keys. Memory is bounded by
 * `maxTablets × RECENT_KEYS` keys, whatever the number of writes.
 *
 * Per step: writes are recorded against their tablets; `endStep` reads the
 * step's load per node (served by the assignment that held during the step),
 * updates the load averages, splits tablets that are too big or too hot at the
 * median of their recent keys, and every rebalance interval moves tablets
 * from the busiest node to the least busy one.
 * @internal
 */
export class TabletTable {
  readonly #cluster: ResolvedCluster;
  readonly #tablets: Tablet[];
  #sinceRebalance = 0;

  constructor(cluster: ResolvedCluster) {
    this.#cluster = cluster;
    // A new table is one tablet on one node; splits and moves spread it.
    this.#tablets = [newTablet(Buffer.alloc(0), 0)];
  }

  get tabletCount(): number {
    return this.#tablets.length;
  }

  /** Records `ops` writes (one sampled key standing for them) of `bytes` each. */
  record(key: Buffer, ops: number, bytes: number): void {
    const tablet = this.#tablets[this.#indexOf(key)] as Tablet;
    tablet.stepOps += ops;
    tablet.sizeBytes += ops * bytes;
    if (tablet.recent.length < RECENT_KEYS) tablet.recent.push(key);
    else tablet.recent[tablet.recentNext] = key;
    tablet.recentNext = (tablet.recentNext + 1) % RECENT_KEYS;
  }

  /** Closes a step of `stepSeconds`: the step's node loads, then splits and (when due) a rebalance. */
  endStep(stepSeconds: number): StepLoad {
    const { nodes, loadWindowSeconds, rebalanceIntervalSeconds } = this.#cluster;
    const nodeOps = new Array<number>(nodes).fill(0);
    const decay = Math.exp(-stepSeconds / loadWindowSeconds);
    for (const tablet of this.#tablets) {
      nodeOps[tablet.node] = (nodeOps[tablet.node] as number) + tablet.stepOps;
      tablet.load = tablet.load * decay + (tablet.stepOps / stepSeconds) * (1 - decay);
      tablet.stepOps = 0;
    }
    this.#split();
    this.#sinceRebalance += stepSeconds;
    if (this.#sinceRebalance >= rebalanceIntervalSeconds - 1e-9) {
      this.#sinceRebalance = 0;
      this.#rebalance();
    }
    return { nodeOps, tablets: this.#tablets.length };
  }

  #indexOf(key: Buffer): number {
    const tablets = this.#tablets;
    let low = 0;
    let high = tablets.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (Buffer.compare((tablets[mid] as Tablet).start, key) <= 0) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** Splits the hottest (then biggest) tablets over a threshold, within the per-step and table limits. */
  #split(): void {
    const { splitSizeBytes, hotOpsPerSecond, maxSplitsPerStep, maxTablets } = this.#cluster;
    const candidates = this.#tablets
      .filter((t) => t.load > hotOpsPerSecond || t.sizeBytes > splitSizeBytes)
      .sort((a, b) => b.load - a.load || b.sizeBytes - a.sizeBytes)
      .slice(0, maxSplitsPerStep);
    for (const tablet of candidates) {
      if (this.#tablets.length >= maxTablets) return;
      this.#splitAtMedian(tablet);
    }
  }

  /**
   * Splits at the median of the tablet's recent keys; size and load go to each
   * half in proportion to the recent keys on its side (the model keeps no
   * other record of where the tablet's data lies). A tablet whose recent
   * writes all hit one row cannot split, as in Bigtable.
   */
  #splitAtMedian(tablet: Tablet): void {
    const keys = [...tablet.recent].sort(Buffer.compare);
    const distinct = keys.filter((k, i) => i === 0 || !k.equals(keys[i - 1] as Buffer));
    if (distinct.length < 2) return;
    const splitKey = distinct[distinct.length >> 1] as Buffer;
    const right = keys.filter((k) => Buffer.compare(k, splitKey) >= 0);
    const fraction = right.length / keys.length;
    const child = newTablet(splitKey, tablet.node);
    child.sizeBytes = tablet.sizeBytes * fraction;
    child.load = tablet.load * fraction;
    child.recent = right;
    child.recentNext = right.length % RECENT_KEYS;
    tablet.sizeBytes -= child.sizeBytes;
    tablet.load -= child.load;
    tablet.recent = keys.filter((k) => Buffer.compare(k, splitKey) < 0);
    tablet.recentNext = tablet.recent.length % RECENT_KEYS;
    this.#tablets.splice(this.#tablets.indexOf(tablet) + 1, 0, child);
  }

  /**
   * Greedy moves from the busiest node to the least busy one: each time the
   * busiest node's heaviest tablet lighter than the gap between the two (so
   * the move lowers the maximum), until no tablet fits or the move limit.
   */
  #rebalance(): void {
    const { nodes, maxMovesPerRebalance } = this.#cluster;
    const loads = new Array<number>(nodes).fill(0);
    for (const t of this.#tablets) loads[t.node] = (loads[t.node] as number) + t.load;
    for (let move = 0; move < maxMovesPerRebalance; move++) {
      let busiest = 0;
      let idlest = 0;
      loads.forEach((load, node) => {
        if (load > (loads[busiest] as number)) busiest = node;
        if (load < (loads[idlest] as number)) idlest = node;
      });
      const gap = (loads[busiest] as number) - (loads[idlest] as number);
      let pick: Tablet | undefined;
      for (const t of this.#tablets) {
        if (t.node === busiest && t.load > 0 && t.load < gap && (pick === undefined || t.load > pick.load)) pick = t;
      }
      if (pick === undefined) return;
      pick.node = idlest;
      loads[busiest] = (loads[busiest] as number) - pick.load;
      loads[idlest] = (loads[idlest] as number) + pick.load;
    }
  }
}

function newTablet(start: Buffer, node: number): Tablet {
  return { start, node, sizeBytes: 0, load: 0, stepOps: 0, recent: [], recentNext: 0 };
}
