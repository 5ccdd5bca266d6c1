import { Observable } from 'rxjs';

/**
 * Returns the iterator of an async iterable, or the iterator itself.
 * @internal
 *
 * @example
 * ```ts
 * const iterator = toAsyncIterator(readings.iterate({ where: { sensorId: 's1' } }));
 * ```
 */
export function toAsyncIterator<T>(made: AsyncIterator<T> | AsyncIterable<T>): AsyncIterator<T> {
  return Symbol.asyncIterator in made ? made[Symbol.asyncIterator]() : made;
}

/**
 * Runs an iterator factory for a new subscription; a factory that throws
 * errors the subscriber and yields `undefined`.
 * @internal
 *
 * @example
 * ```ts
 * const iterator = openForSubscriber(factory, subscriber);
 * if (iterator === undefined) return undefined;
 * ```
 */
export function openForSubscriber<T>(
  factory: () => AsyncIterator<T> | AsyncIterable<T>,
  subscriber: { error(err: unknown): void },
): AsyncIterator<T> | undefined {
  try {
    return toAsyncIterator(factory());
  } catch (error) {
    subscriber.error(error);
    return undefined;
  }
}

/**
 * Closes an iterator in the background (its `return()`), e.g. on unsubscribe.
 * The consumer has left, so an error from `return()` has no one to go to and is dropped.
 * @internal
 *
 * @example
 * ```ts
 * closeInBackground(iterator);
 * ```
 */
export function closeInBackground(iterator: AsyncIterator<unknown>): void {
  Promise.resolve()
    .then(() => iterator.return?.())
    .catch(() => undefined);
}

/**
 * Exposes a pull-based async iterator as a cold Observable.
 *
 * - Cold: `factory` runs once per subscription (each subscription is its own scan).
 * - Paced by the subscriber: the next item is pulled only after the previous
 *   `subscriber.next()` returned, so a synchronous subscriber throttles the sources.
 *   Asynchronous operators (`concatMap`, `mergeMap`...) accept items at once and
 *   buffer them themselves; for slow asynchronous work use
 *   {@link concatMapFromIterable}, or iterate the async iterable directly.
 * - Unsubscribing (including `take(n)`, `first()`) calls the iterator's `return()`,
 *   which for a scan's iterator cancels every read it has open.
 * - Errors from the iterator (or the factory) go to `error`.
 *
 * @example
 * ```ts
 * const rows$ = iterableToObservable(() => readings.iterate({ where: { sensorId: 's1' } }));
 * rows$.pipe(take(10)).subscribe((row) => console.log(row)); // cancels all buckets after 10
 * ```
 */
export function iterableToObservable<T>(factory: () => AsyncIterator<T> | AsyncIterable<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const iterator = openForSubscriber(factory, subscriber);
    if (iterator === undefined) return undefined;
    let ended = false;
    const pump = async (): Promise<void> => {
      try {
        while (!subscriber.closed) {
          const result = await iterator.next();
          if (subscriber.closed) return;
          if (result.done === true) {
            ended = true;
            subscriber.complete();
            return;
          }
          subscriber.next(result.value);
        }
      } catch (error) {
        ended = true;
        subscriber.error(error);
      }
    };
    void pump();
    return () => {
      if (!ended) closeInBackground(iterator);
    };
  });
}
