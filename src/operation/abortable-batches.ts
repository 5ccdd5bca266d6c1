import { batchStream, type BatchStream } from '../stream/batch-stream.js';
import type { RunningOperation } from './operation.js';

/**
 * Ties a scan's batch stream to its operation: as soon as the operation's
 * signal aborts (its deadline, the caller's signal or `mapper.close()`), a
 * pending `next()` rejects with the typed abort error whatever the reads are
 * doing, and the reads are cancelled (see {@link batchStream}'s `signal`).
 * Errors of the reads are reported as the operation's own
 * (`operation.failure`). The operation ends (timer and listeners released)
 * when the scan is exhausted, fails, is cancelled or aborted; `settled`
 * resolves then, so `close()` can wait for it.
 * @internal
 * @example
 * ```ts
 * const { batches, settled } = abortableBatches(executeScan(driver, schema, plan, undefined, op.call), op, 'Reading.scan');
 * ```
 */
export function abortableBatches<T>(
  inner: BatchStream<T>,
  operation: RunningOperation,
  name: string,
): { batches: BatchStream<T>; settled: Promise<void> } {
  let finished = false;
  let markSettled!: () => void;
  const settled = new Promise<void>((resolve) => (markSettled = resolve));
  const finish = (): void => {
    if (finished) return;
    finished = true;
    operation.end();
    markSettled();
  };
  const batches = batchStream<T>(
    {
      pull: async () => {
        try {
          const result = await inner.next();
          if (result.done !== true) return result.value;
          finish();
          return undefined;
        } catch (error) {
          finish();
          throw operation.failure(error);
        }
      },
      stop: () => {
        try {
          inner.cancel();
        } finally {
          finish();
        }
      },
    },
    { signal: operation.signal, name },
  );
  return { batches, settled };
}
