/**
 * A cancellable, pull-based source of items: one per key range (salt bucket) of a scan.
 * Items are produced only when the consumer calls `next()`; `cancel()` stops the
 * underlying read (for a Bigtable stream: `stream.end()`, the only call that
 * cancels the gRPC read) and is idempotent. A source is iterated at most once.
 *
 * @example
 * ```ts
 * const source: RowSource<Row> = fromAsyncIterable(stream, () => stream.end());
 * for await (const row of source) if (done(row)) { source.cancel(); break; }
 * ```
 */
export interface RowSource<T> extends AsyncIterable<T> {
  /** Stops the underlying read. Safe to call more than once and after the source ended. */
  cancel(): void;
}

/**
 * Opens a {@link RowSource} on demand, so merges can start sources lazily
 * (bounded concurrency) and never open sources a consumer does not reach.
 *
 * @example
 * ```ts
 * const factories: RowSourceFactory<Row>[] = ranges.map((range) => () => openRange(range));
 * ```
 */
export type RowSourceFactory<T> = () => RowSource<T>;

/**
 * Wraps an async iterable (e.g. a Node readable stream) as a {@link RowSource}:
 * what a custom {@link BigtableDriver}'s `readRows` returns (the built-in
 * driver has its own source). `cancel()` calls `onCancel` once, then iteration ends at the next item; breaking
 * out of the iteration also closes `iterable` (its iterator's `return()`).
 *
 * @example
 * ```ts
 * const stream = table.createReadStream({ ranges: [range] });
 * const source = fromAsyncIterable<Row>(stream, () => stream.end());
 * ```
 */
export function fromAsyncIterable<T>(iterable: AsyncIterable<T>, onCancel: () => void): RowSource<T> {
  let cancelled = false;
  return {
    cancel(): void {
      if (cancelled) return;
      cancelled = true;
      onCancel();
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
      if (cancelled) return;
      for await (const item of iterable) {
        if (cancelled) return;
        yield item;
      }
    },
  };
}
