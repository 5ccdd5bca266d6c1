import type { CopyFiller, FillOutcome } from './fill-copies.js';

/** Entities read ahead per source lookup of a bulk save. @internal @example `fillStream(input, filler, FILL_CHUNK)` */
const FILL_CHUNK = 1000;

/**
 * Bulk-save input with copies filled: `entities` re-yields the input as
 * given, one chunk of {@link FILL_CHUNK} at a time after one batched source
 * lookup per chunk, and `take(entity)` returns the filled entity (or throws
 * why it could not be filled) for the next entity yielded, in order. The bulk
 * writer thus reports failures with the caller's own entities.
 *
 * @internal
 */
export function fillStream<T>(
  input: Iterable<T> | AsyncIterable<T>,
  filler: CopyFiller<T>,
  chunkSize = FILL_CHUNK,
): { entities: AsyncIterable<T>; take(entity: T): T } {
  const ready: { entity: T; outcome: FillOutcome<T> }[] = [];
  async function* entities(): AsyncGenerator<T> {
    let chunk: T[] = [];
    const flush = async function* (): AsyncGenerator<T> {
      const outcomes = await filler.fill(chunk);
      for (const [i, entity] of chunk.entries()) {
        ready.push({ entity, outcome: outcomes[i] as FillOutcome<T> });
        yield entity;
      }
      chunk = [];
    };
    for await (const entity of input as AsyncIterable<T>) {
      chunk.push(entity);
      if (chunk.length >= chunkSize) yield* flush();
    }
    if (chunk.length > 0) yield* flush();
  }
  return {
    entities: { [Symbol.asyncIterator]: entities },
    take(entity: T): T {
      const next = ready.shift();
      if (next === undefined || next.entity !== entity)
        throw new Error('bigtable-mapper: filled entities were taken out of order');
      if (!next.outcome.ok) throw next.outcome.error;
      return next.outcome.entity;
    },
  };
}
