import { batchStream, type BatchStream } from '../stream/batch-stream.js';
import type { RunningOperation } from './operation.js';

/** A scan's batches under its operation: aborted by its signal; `settled` lets `close()` wait. @internal */
export function abortableBatches<T>(
  inner: BatchStream<T>,
  operation: RunningOperation,
  name: string,
): { batches: BatchStream<T>; settled: Promise<void> } {
  let finished = false;
  let markSettled!: () => void;
  const settled = new Promise<void>((resolve) => (markSettled = resolve));
  const finish = (error?: unknown): void => {
    if (finished) return;
    finished = true;
    operation.end(error);
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
          finish(error);
          throw error;
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
