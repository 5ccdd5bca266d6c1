import { from, Observable } from 'rxjs';
import type { ObservableInput, Subscriber, Subscription } from 'rxjs';
import type { MappedBatches } from './batch-stream.js';
import { iteratorBatches } from './async-iterable.js';

/** A subscription's batches, from `open`; an error it throws goes to `error`. */
function openBatches<S, T>(
  open: () => MappedBatches<S, T>,
  subscriber: Subscriber<unknown>,
): MappedBatches<S, T> | undefined {
  try {
    return open();
  } catch (error) {
    subscriber.error(error);
    return undefined;
  }
}

/**
 * A cold Observable of a batch stream's items, `map` applied to each as it is
 * emitted: `open` runs once per subscription, and the next batch is read once
 * the subscriber's last `next()` returned. Unsubscribing cancels the stream.
 * @internal
 */
export function batchesToObservable<S, T>(open: () => MappedBatches<S, T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const opened = openBatches(open, subscriber);
    if (opened === undefined) return undefined;
    const { stream, map } = opened;
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

/** An async iterator's items, one per batch. */
function iteratorItems<T>(factory: () => AsyncIterator<T> | AsyncIterable<T>): MappedBatches<T, T> {
  const made = factory();
  const iterator = Symbol.asyncIterator in made ? made[Symbol.asyncIterator]() : made;
  return { stream: iteratorBatches(() => iterator), map: (item) => item };
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
    const opened = openBatches(() => iteratorItems(factory), subscriber);
    if (opened === undefined) return undefined;
    const { stream } = opened;
    let batch: readonly T[] = [];
    let position = 0;
    let index = 0;
    let inner: Subscription | undefined;
    const fail = (error: unknown): void => subscriber.error(error);

    const onItem = (item: T): void => {
      let input: ObservableInput<R>;
      try {
        input = project(item, index++);
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
        const item = batch[position++] as T;
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
          onItem(batch[0] as T);
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
