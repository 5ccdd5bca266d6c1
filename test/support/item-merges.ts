import { flattenBatches } from '../../src/stream/flatten-batches.js';
import { mergeOrderedBatches, type OrderedMergeOptions } from '../../src/stream/k-way-merge.js';
import type { RowSource, RowSourceFactory } from '../../src/stream/row-source.js';
import { singleSourceBatches } from '../../src/stream/single-source.js';
import { mergeUnorderedBatches, type UnorderedMergeOptions } from '../../src/stream/unordered-merge.js';

/**
 * The scan's merges read one item at a time, as `execute-scan` flattens them
 * for `iterate()`: the tests check each merge's item order and cancellation
 * through these.
 */

/** `mergeOrderedBatches`, item by item. */
export function mergeOrdered<T>(
  sources: readonly RowSourceFactory<T>[],
  compare: (a: T, b: T) => number,
  options: OrderedMergeOptions = {},
): AsyncIterableIterator<T> {
  return flattenBatches(mergeOrderedBatches(sources, compare, options), (item) => item);
}

/** `mergeUnorderedBatches`, item by item. */
export function mergeUnordered<T>(
  sources: readonly RowSourceFactory<T>[],
  options: UnorderedMergeOptions,
): AsyncIterableIterator<T> {
  return flattenBatches(mergeUnorderedBatches(sources, options), (item) => item);
}

/** `singleSourceBatches`, item by item. */
export function iterateSingleSource<T>(source: RowSource<T>, limit: number | undefined): AsyncIterableIterator<T> {
  return flattenBatches(singleSourceBatches(source, limit), (item) => item);
}
