import { from, Observable } from 'rxjs';
import type { ObservableInput, Subscriber, Subscription } from 'rxjs';
import type { BatchStream } from './batch-stream.js';
import { BatchItems, iteratorBatches } from './row-source.js';

/** A subscription's items: a batch stream and the map applied to each item as it is emitted. */
interface Items<T> {
  readonly stream: BatchStream<unknown>;
  readonly map: (item: unknown) => T;
}

/** A subscription's items: batch by batch from an unread {@link BatchItems}; a factory error goes to `error`. */
function openItems<T>(
  factory: () => AsyncIterator<T> | AsyncIterable<T>,
  subscriber: Subscriber<unknown>,
): Items<T> | undefined {
  let iterator: AsyncIterator<T>;
  try {
    const made = factory();
    iterator = Symbol.asyncIterator in made ? made[Symbol.asyncIterator]() : made;
  } catch (error) {
    subscriber.error(error);
    return undefined;
  }
  if (iterator instanceof BatchItems && iterator.unread) return iterator as Items<T>;
  return { stream: iteratorBatches(() => iterator), map: (item) => item as T };
}

/** A cold Observable paced by its subscriber: the next batch is read once the last `next()` returned. @internal */
export function iterableToObservable<T>(factory: () => AsyncIterator<T> | AsyncIterable<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const items = openItems(factory, subscriber);
    if (items === undefined) return undefined;
    const { stream, map } = items;
    const pump = async (): Promise<void> => {
      try {
        while (!subscriber.closed) {
          const result = await stream.next();
          if (subscriber.closed) return;
          if (result.done === true) {
            subscriber.complete();
            return;
          }
          for (const item of result.value) {
            subscriber.next(map(item));
            if (subscriber.closed) return;
          }
        }
      } catch (error) {
        subscriber.error(error);
      }
    };
    void pump();
    return () => stream.cancel();
  });
}

/**
 * `concatMap` with backpressure: applies `project` to each item of a pull-based
 * iterator and takes the next item only when the previous inner observable
 * completed. RxJS operators cannot ask their upstream to wait, so
 * `repo.scan(query).pipe(concatMap(p))` buffers every row of the scan
 * inside `concatMap` when `p` is slow; this takes the next row only when `p`'s
 * observable completed, so the scan's reads stay within their bounded buffers.
 *
 * Cold like {@link Repository.scan}: `factory` runs once per subscription.
 * Unsubscribing cancels the inner observable and the iterator (cancelling
 * every source); errors from the iterator, `project` or an inner observable
 * go to `error`.
 *
 * @example
 * ```ts
 * const saved$ = concatMapFromIterable(() => readings.iterate({ where: { sensorId: 's1' } }), (row) => from(publish(row)));
 * ```
 */
export function concatMapFromIterable<T, R>(
  factory: () => AsyncIterator<T> | AsyncIterable<T>,
  project: (item: T, index: number) => ObservableInput<R>,
): Observable<R> {
  return new Observable<R>((subscriber) => {
    const items = openItems(factory, subscriber);
    if (items === undefined) return undefined;
    const { stream, map } = items;
    let batch: readonly unknown[] = [];
    let position = 0;
    let index = 0;
    let inner: Subscription | undefined;
    const fail = (error: unknown): void => subscriber.error(error);

    const onItem = (item: unknown): void => {
      let input: ObservableInput<R>;
      try {
        input = project(map(item), index++);
      } catch (error) {
        fail(error);
        return;
      }
      inner = from(input).subscribe({
        next: (value) => subscriber.next(value),
        error: (error: unknown) => fail(error),
        complete: () => pullNext(),
      });
    };

    const pullNext = (): void => {
      if (position < batch.length) {
        const item = batch[position++];
        void Promise.resolve().then(() => {
          if (!subscriber.closed) onItem(item);
        });
        return;
      }
      batch = [];
      stream.next().then(
        (result) => {
          if (subscriber.closed) return;
          if (result.done === true) {
            subscriber.complete();
            return;
          }
          batch = result.value;
          position = 1;
          onItem(batch[0]);
        },
        (error: unknown) => fail(error),
      );
    };

    pullNext();
    return () => {
      inner?.unsubscribe();
      stream.cancel();
    };
  });
}
