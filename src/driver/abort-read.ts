/**
 * The part of the client's read stream (`table.createReadStream()`) the driver uses.
 * @internal
 * @example
 * ```ts
 * const stream: ClientReadStream = table.createReadStream({ decode: false });
 * ```
 */
export interface ClientReadStream {
  end(): unknown;
  on(event: 'data', listener: (row: unknown) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  destroy(): unknown;
}

const LATE_START_MS = 100;

/**
 * Cancels a read's gRPC call. Only `stream.end()` does that (the client
 * overrides it to abort the call); `destroy()` and `break` leave the call
 * running. The client creates the gRPC call asynchronously (after a
 * `setImmediate`, or after a project-id lookup), and an `end()` issued before
 * that aborts nothing: the server then streams the whole rest of the read, which
 * the client discards. So `end()` is repeated once the client has had the chance
 * to start the call (two event-loop turns later) and once more after a short,
 * unref'd delay; repeated `end()` calls are harmless.
 * @internal
 * @example
 * ```ts
 * abortRead(stream); // instead of stream.destroy()
 * ```
 */
export function abortRead(stream: ClientReadStream): void {
  const end = (): void => {
    try {
      stream.end();
    } catch {
      return;
    }
  };
  end();
  setImmediate(() => setImmediate(end));
  setTimeout(end, LATE_START_MS).unref();
}
