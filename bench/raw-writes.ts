import type { Table } from '@google-cloud/bigtable';

/**
 * Sends `total` rows in batches of `batchSize` with `concurrency` batches in
 * flight, the raw client's best bulk settings (it never splits batches and
 * flattens them in O(n²)). `send(from, to)` builds and sends rows `[from, to)`.
 * @example `await inBatches(100000, 500, 2, (a, b) => table.insert(build(a, b)))`
 */
export async function inBatches(
  total: number,
  batchSize: number,
  concurrency: number,
  send: (from: number, to: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < total) {
      const from = next;
      next = Math.min(total, next + batchSize);
      await send(from, next);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Runs `task(i)` for `i` in `[0, total)` with at most `concurrency` in flight. @example `await bounded(5000, 16, (i) => table.row(k(i)).save(d(i)))` */
export async function bounded(
  total: number,
  concurrency: number,
  task: (index: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < total) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
}

/** Writes pre-built raw entries from `build(i)` for `i` in `[0, total)` (untimed dataset loading). @example `await loadPrebuilt(table, n, (i) => prebuiltEntry(wideKey(i), wideValues(i), micros))` */
export async function loadPrebuilt(
  table: Table,
  total: number,
  build: (index: number) => object,
  batchSize = 500,
  concurrency = 2,
): Promise<void> {
  await inBatches(total, batchSize, concurrency, (from, to) =>
    table.mutate(
      Array.from({ length: to - from }, (_, i) => build(from + i)),
      { rawMutation: true },
    ),
  );
}
