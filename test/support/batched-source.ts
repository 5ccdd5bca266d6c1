import { batchStream, type BatchStream } from '../../src/stream/batch-stream.js';

/**
 * A batch stream over fixed batches, as the built-in driver's reads are:
 * counts batches handed over and cancel calls; `failAfter` rejects the read
 * after that many batches.
 *
 * @example
 * ```ts
 * const fake = new BatchedFake([[1, 2], [3]]);
 * for await (const n of mergeOrdered([fake.factory], (a, b) => a - b)) console.log(n);
 * ```
 */
export class BatchedFake<T> {
  handed = 0;
  cancelCalls = 0;
  readonly factory = (): BatchStream<T> => this.#open();
  readonly #batches: readonly (readonly T[])[];
  readonly #failAfter: number | undefined;

  constructor(batches: readonly (readonly T[])[], options: { failAfter?: number } = {}) {
    this.#batches = batches.filter((batch) => batch.length > 0);
    this.#failAfter = options.failAfter;
  }

  #open(): BatchStream<T> {
    let next = 0;
    let cancelled = false;
    return batchStream({
      pull: async () => {
        await Promise.resolve();
        if (cancelled) return undefined;
        if (this.#failAfter === next) throw new Error(`batched fake failed after ${next} batches`);
        const batch = this.#batches[next];
        if (batch === undefined) return undefined;
        next += 1;
        this.handed += 1;
        return [...batch];
      },
      stop: () => {
        this.cancelCalls += 1;
        cancelled = true;
      },
    });
  }
}

/**
 * Splits a list into consecutive batches whose sizes come from `sizes` (cycled; each at least 1).
 *
 * @example
 * ```ts
 * splitInto([1, 2, 3, 4, 5], [2, 1]); // [[1, 2], [3], [4, 5]]
 * ```
 */
export function splitInto<T>(items: readonly T[], sizes: readonly number[]): T[][] {
  const out: T[][] = [];
  let at = 0;
  for (let i = 0; at < items.length; i += 1) {
    const size = Math.max(1, sizes.length === 0 ? items.length : (sizes[i % sizes.length] as number));
    out.push(items.slice(at, at + size));
    at += size;
  }
  return out;
}
