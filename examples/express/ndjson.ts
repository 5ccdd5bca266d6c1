import type { Response } from 'express';

/**
 * How an NDJSON response ended: every row written, or the client went away
 * after `rows` lines.
 *
 * @example
 * ```ts
 * const summary: NdjsonSummary = { rows: 120, aborted: true };
 * ```
 */
export interface NdjsonSummary {
  rows: number;
  aborted: boolean;
}

function drainOrClose(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Writes `rows` as newline-delimited JSON with backpressure: when
 * `res.write` returns false it waits for `drain`, so a slow client slows the
 * scan instead of filling memory. When the client disconnects it stops
 * iterating, which cancels the underlying reads. The first row is read before
 * any header is sent, so an invalid query still gets a proper error status.
 *
 * @example
 * ```ts
 * const summary = await writeNdjson(res, readings.iterate({ where: { sensorId } }), toReadingJson);
 * ```
 */
export async function writeNdjson<T>(
  res: Response,
  rows: AsyncIterable<T>,
  toJson: (row: T) => unknown,
): Promise<NdjsonSummary> {
  const iterator = rows[Symbol.asyncIterator]();
  let aborted = false;
  const onClose = (): void => {
    if (!res.writableFinished) aborted = true;
  };
  res.on('close', onClose);
  let count = 0;
  try {
    let next = await iterator.next();
    res.status(200).type('application/x-ndjson');
    while (!next.done && !aborted) {
      count += 1;
      if (!res.write(`${JSON.stringify(toJson(next.value))}\n`)) await drainOrClose(res);
      if (!aborted) next = await iterator.next();
    }
    if (!aborted) res.end();
  } finally {
    res.off('close', onClose);
    await iterator.return?.();
  }
  return { rows: count, aborted };
}
