import { from, Observable } from 'rxjs';
import type { ObservableInput, Subscription } from 'rxjs';
import { closeInBackground, openForSubscriber } from './to-observable.js';

/**
 * `concatMap` with backpressure: applies `project` to each item of a pull-based
 * iterator and pulls the next item only when the previous inner observable
 * completed. RxJS operators cannot ask their upstream to wait, so
 * `repo.scan(query).pipe(concatMap(p))` buffers every row of the scan
 * inside `concatMap` when `p` is slow; this takes the next row only when `p`'s
 * observable completed, so the scan's reads stay within their bounded buffers.
 *
 * Cold like {@link Repository.scan}: `factory` runs once per subscription.
 * Unsubscribing cancels the inner observable and calls the iterator's
 * `return()` (cancelling every source); errors from the iterator, `project`
 * or an inner observable go to `error`.
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
    const iterator = openForSubscriber(factory, subscriber);
    if (iterator === undefined) return undefined;
    let ended = false;
    let index = 0;
    let inner: Subscription | undefined;

    const onItem = (item: T): void => {
      let input: ObservableInput<R>;
      try {
        input = project(item, index++);
      } catch (error) {
        subscriber.error(error);
        return;
      }
      inner = from(input).subscribe({
        next: (value) => subscriber.next(value),
        error: (error: unknown) => subscriber.error(error),
        complete: () => pullNext(),
      });
    };

    const pullNext = (): void => {
      Promise.resolve()
        .then(() => iterator.next())
        .then(
          (result) => {
            if (subscriber.closed) return;
            if (result.done === true) {
              ended = true;
              subscriber.complete();
            } else {
              onItem(result.value);
            }
          },
          (error: unknown) => {
            ended = true;
            subscriber.error(error);
          },
        );
    };

    pullNext();
    return () => {
      inner?.unsubscribe();
      if (!ended) closeInBackground(iterator);
    };
  });
}
