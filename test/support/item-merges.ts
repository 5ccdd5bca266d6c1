import type { BatchStream } from '../../src/stream/batch-stream.js';
import { takeItems } from '../../src/stream/batch-stream.js';
import {
  mergeOrdered as mergeOrderedBatches,
  type OrderedMergeOptions,
  mergeUnordered as mergeUnorderedBatches,
  type UnorderedMergeOptions,
} from '../../src/stream/merge.js';
import { eachItem } from '../../src/stream/async-iterable.js';

/**
 * The scan's merges read one item at a time, as `iterate()` reads them: the
 * tests check each merge's item order and cancellation through these.
 */

/** Opens a test source: the batch stream a merge reads. */
export type TestSource<T> = () => BatchStream<T>;

/** `mergeOrdered`, item by item. */
export function mergeOrdered<T>(
  sources: readonly TestSource<T>[],
  compare: (a: T, b: T) => number,
  options: OrderedMergeOptions<T> = {},
): AsyncIterableIterator<T> {
  return eachItem(mergeOrderedBatches(sources, compare, options), (item: T) => item);
}

/** `mergeUnordered`, item by item. */
export function mergeUnordered<T>(
  sources: readonly TestSource<T>[],
  options: UnorderedMergeOptions,
): AsyncIterableIterator<T> {
  return eachItem(mergeUnorderedBatches(sources, options), (item: T) => item);
}

/** A scan's single-source path (`takeItems` over the source), item by item. */
export function iterateSingleSource<T>(source: BatchStream<T>, limit: number | undefined): AsyncIterableIterator<T> {
  return eachItem(takeItems(source, limit), (item: T) => item);
}
