/**
 * The rows of a read (a batch stream, as `driver.readRows` returns) one by
 * one, as these tests look at them; leaving the loop early cancels the read.
 *
 * @example
 * ```ts
 * for await (const row of rowsOf(driver.readRows({ table }))) keys.push(row.key.toString());
 * ```
 */
export async function* rowsOf<T>(batches: AsyncIterable<readonly T[]>): AsyncGenerator<T, void, undefined> {
  for await (const batch of batches) yield* batch;
}
