import type { RowSource } from './row-source.js';

/**
 * A {@link RowSource} that maps (or, returning `undefined`, skips) the items
 * of another source with a plain iterator: one promise per item instead of
 * the several an async generator wrapper costs on every row of a scan.
 * `onEnd` runs once when the inner source ran to its end (not when cancelled).
 * @internal
 * @example
 * ```ts
 * const keys = mapSource(rows, (row) => row.key, () => console.log('read to the end'));
 * ```
 */
export function mapSource<A, B>(inner: RowSource<A>, map: (item: A) => B | undefined, onEnd: () => void): RowSource<B> {
  let cancelled = false;
  let ended = false;
  const done = (): IteratorReturnResult<undefined> => ({ done: true, value: undefined });
  const cancel = (): void => {
    if (cancelled) return;
    cancelled = true;
    inner.cancel();
  };
  return {
    cancel,
    [Symbol.asyncIterator](): AsyncIterator<B> {
      const items = inner[Symbol.asyncIterator]();
      return {
        async next(): Promise<IteratorResult<B>> {
          while (!cancelled && !ended) {
            const result = await items.next();
            if (cancelled) break;
            if (result.done === true) {
              ended = true;
              onEnd();
              break;
            }
            const mapped = map(result.value);
            if (mapped !== undefined) return { done: false, value: mapped };
          }
          return done();
        },
        async return(): Promise<IteratorResult<B>> {
          cancel();
          return done();
        },
      };
    },
  };
}
