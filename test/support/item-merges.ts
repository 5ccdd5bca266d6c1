import { flattenBatches } from '../../src/scan/flatten-batches.js';
import { mergeOrderedBatches, type OrderedMergeOptions } from '../../src/scan/k-way-merge.js';
import type { RowSource, RowSourceFactory } from '../../src/scan/row-source.js';
import { singleSourceBatches } from '../../src/scan/single-source.js';
import { mergeUnorderedBatches, type UnorderedMergeOptions } from '../../src/scan/unordered-merge.js';

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
