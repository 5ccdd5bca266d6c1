/**
 * The part of a response stream of the generated client (`readRows`,
 * `mutateRows`) that ends its RPC.
 * @internal
 */
export interface AbortableRead {
  cancel(): unknown;
  destroy(): unknown;
}

/**
 * Cancels an RPC's gRPC call, then destroys its stream. Only `cancel()` ends
 * the call (on the server too); `destroy()` alone leaves it running, and the
 * server would stream the whole rest of a read that nobody reads. The
 * generated client starts the call once its channel is ready: a `cancel()`
 * before that is remembered and the call is never made. The stream is
 * destroyed on the next microtask, so its events do not run inside the
 * caller's own bookkeeping.
 * @internal
 */
export function abortRead(stream: AbortableRead): void {
  try {
    stream.cancel();
  } catch {
    // A stream that cannot be cancelled any more has no call left to end.
  }
  Promise.resolve()
    .then(() => stream.destroy())
    .catch(() => undefined);
}
