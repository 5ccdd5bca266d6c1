import { from, Observable } from 'rxjs';
import type { ObservableInput, Subscriber, Subscription } from 'rxjs';
import type { BatchStream } from './batch-stream.js';
import { BatchItems, iteratorBatches } from './row-source.js';

/** A subscription's items: a batch stream and the map applied to each item as it is emitted. */
interface Items<T> {
  readonly stream: BatchStream<unknown>;
  readonly map: (item: unknown) => T;
}

/**
 * Runs the factory for a new subscription and reads what it made a batch at
 * a time: an unread item iterator of a batch stream (a scan's) through its
 * stream, any other iterator one item per batch. A factory that throws errors
 * the subscriber and yields `undefined`.
 */
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

/**
 * Exposes a pull-based async iterator as a cold Observable.
 *
 * - Cold: `factory` runs once per subscription (each subscription is its own scan).
 * - Paced by the subscriber: the items of a batch the reads already hold are
 *   emitted one after the other, and the next batch is asked for only after
 *   the last `subscriber.next()` returned, so a synchronous subscriber
 *   throttles the sources. Asynchronous operators (`concatMap`, `mergeMap`...)
 *   accept items at once and buffer them themselves; for slow asynchronous
 *   work use {@link concatMapFromIterable}, or iterate the async iterable directly.
 * - Unsubscribing (including `take(n)`, `first()`) cancels the stream, which
 *   for a scan cancels every read it has open.
 * - Errors from the iterator (or the factory) go to `error`.
 * @internal
 * @example
 * ```ts
 * const rows$ = iterableToObservable(() => readings.iterate({ where: { sensorId: 's1' } }));
 * rows$.pipe(take(10)).subscribe((row) => console.log(row)); // cancels all buckets after 10
 * ```
 */
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
        stream.cancel();
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

    const fail = (error: unknown): void => {
      stream.cancel();
      subscriber.error(error);
    };

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
