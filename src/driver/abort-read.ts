/**
 * The part of a ReadRows response stream (`bigtable.request({ method: 'readRows' })`)
 * that cancels it.
 * @internal
 * @example
 * ```ts
 * const stream: AbortableRead = bigtable.request({ client: 'BigtableClient', method: 'readRows', reqOpts });
 * ```
 */
export interface AbortableRead {
  abort(): unknown;
  destroy(): unknown;
}

const LATE_START_MS = 100;

/**
 * Cancels a read's gRPC call. Only `abort()` does that; `destroy()` leaves the
 * call running. The client creates the gRPC call asynchronously (once the
 * stream is first read, after a project-id lookup), and an `abort()` issued
 * before that cancels nothing: the server then streams the whole rest of the
 * read, which nobody reads. So `abort()` is repeated once the client has had
 * the chance to start the call (two event-loop turns later) and once more after
 * a short, unref'd delay; repeated calls are harmless. The stream is destroyed
 * after the first.
 * @internal
 * @example
 * ```ts
 * abortRead(stream); // instead of stream.destroy()
 * ```
 */
export function abortRead(stream: AbortableRead): void {
  const abort = (): void => {
    try {
      stream.abort();
    } catch {
      return;
    }
  };
  abort();
  Promise.resolve()
    .then(() => stream.destroy())
    .catch(() => undefined);
  setImmediate(() => setImmediate(abort));
  setTimeout(abort, LATE_START_MS).unref();
}
