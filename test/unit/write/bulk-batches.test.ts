import { describe, expect, it } from 'vitest';
import type { CallOptions, MutateRowsRequest, RowMutationFailure } from '../../../src/model/driver.js';
import type { CellMutation, CompiledMutation } from '../../../src/model/mutation.js';
import { PartialWriteError } from '../../../src/errors/operation-errors.js';
import { writeMany } from '../../../src/repository/save-many.js';
import type { BulkWriteOptions } from '../../../src/write/bulk-writer.js';
import { FakeDriver } from '../../support/fake-driver.js';

/**
 * How the one bulk path (the BulkWriter, under saveMany too) cuts its input
 * into MutateRows batches: by rows, cell mutations and bytes, in input order,
 * the same for every kind of input.
 */

/** An input item: `cells` cell mutations (or a compile error when negative), or one cell of `bytes` value bytes. */
type Item = { id: number; cells: number; bytes?: number };

const cell: CellMutation = { kind: 'deleteFromRow' };

function compile(item: Item): CompiledMutation {
  if (item.cells < 0) throw new Error(`bad ${item.id}`);
  const mutations: CellMutation[] =
    item.bytes === undefined
      ? new Array<CellMutation>(item.cells).fill(cell)
      : [{ kind: 'setCell', family: 'f', qualifier: 'q', timestampMicros: 0, value: Buffer.alloc(item.bytes) }];
  return { table: 't', rowKey: Buffer.from(`k${item.id}`), rowKeyText: `k${item.id}`, mutations, idempotent: true };
}

/** Records each MutateRows batch's row keys and writes nothing. */
class RecordingDriver extends FakeDriver {
  readonly batches: string[][] = [];
  override mutateRows(request: MutateRowsRequest, _options?: CallOptions): Promise<RowMutationFailure[]> {
    this.batches.push(request.mutations.map((m) => m.rowKeyText));
    return Promise.resolve([]);
  }
}

const items = (sizes: readonly number[]): Item[] => sizes.map((cells, id) => ({ id, cells }));

async function* asyncOf<T>(values: readonly T[]): AsyncGenerator<T> {
  for (const value of values) yield value;
}

/** Every batch sent (row keys) and the compile errors (as `index:message`). */
async function drain(
  input: Iterable<Item> | AsyncIterable<Item>,
  options: BulkWriteOptions = {},
): Promise<{ batches: string[][]; errors: string[] }> {
  const driver = new RecordingDriver();
  const errors: string[] = [];
  try {
    await writeMany(driver, 'Item', 't', input, compile, { concurrency: 1, ...options });
  } catch (err) {
    if (!(err instanceof PartialWriteError)) throw err;
    for (const f of (err as PartialWriteError<Item>).failures) errors.push(`${f.index}:${f.entity.id}:${f.message}`);
  }
  return { batches: driver.batches, errors };
}

const idsOf = async (sizes: readonly number[], options: BulkWriteOptions = {}): Promise<number[][]> =>
  (await drain(asyncOf(items(sizes)), options)).batches.map((b) => b.map((k) => Number(k.slice(1))));

describe('bulk write batches', { timeout: 10_000 }, () => {
  it('gives a sync iterable, a generator and an async iterable the same batches and compile errors', async () => {
    const sizes = [1, 40_000, -1, 40_000, 40_000, 2, -1, 60_000, 1, 1, 1, 1, 1, 1, 100_001, 1];
    for (const options of [{ batchSize: 3 }, { batchSize: 500 }]) {
      const fromArray = await drain(items(sizes), options);
      const fromGenerator = await drain(
        (function* (): Generator<Item> {
          yield* items(sizes);
        })(),
        options,
      );
      const fromAsync = await drain(asyncOf(items(sizes)), options);
      expect(fromGenerator).toEqual(fromArray);
      expect(fromAsync).toEqual(fromArray);
      expect(fromArray.errors).toEqual(['2:2:bad 2', '6:6:bad 6']);
    }
  });

  it('awaits promises in a sync input, as for await does', async () => {
    const input: Iterable<Item> = [
      { id: 0, cells: 1 },
      Promise.resolve({ id: 1, cells: 1 }) as unknown as Item,
      { id: 2, cells: 1 },
    ];
    expect((await drain(input)).batches).toEqual([['k0', 'k1', 'k2']]);
  });

  it('splits by batchSize, keeping input order', async () => {
    expect(await idsOf([1, 1, 1, 1, 1, 1, 1], { batchSize: 3 })).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
  });

  it('defaults to 500 entries per batch', async () => {
    expect((await idsOf(new Array<number>(1001).fill(2))).map((b) => b.length)).toEqual([500, 500, 1]);
  });

  it('never puts more than 100,000 cell mutations in one batch, and fills one exactly up to the cap', async () => {
    expect(await idsOf([40_000, 40_000, 40_000, 60_000, 40_000, 1])).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
    expect((await idsOf([50_000, 50_000, 1])).map((b) => b.length)).toEqual([2, 1]);
  });

  it('closes a batch at the byte limit before the entry limit, whichever comes first', async () => {
    const sized = (n: number, bytes: number): Item[] => Array.from({ length: n }, (_, id) => ({ id, cells: 1, bytes }));
    const sizes = async (input: Item[], options: BulkWriteOptions): Promise<number[]> =>
      (await drain(asyncOf(input), options)).batches.map((b) => b.length);
    expect(await sizes(sized(10, 3_000), { batchSize: 500, batchBytes: 10_000 })).toEqual([3, 3, 3, 1]);
    expect(await sizes(sized(10, 3_000), { batchSize: 2, batchBytes: 10_000 })).toEqual([2, 2, 2, 2, 2]);
    expect(await sizes(sized(3, 50_000), { batchBytes: 10_000 })).toEqual([1, 1, 1]);
    // 600 rows of 600 KB: about 34 rows (20 MiB) per request instead of 500 (300 MB, which the server refuses)
    const big = await sizes(sized(600, 600_000), {});
    expect(Math.max(...big)).toBe(34);
    expect(big.reduce((a, b) => a + b, 0)).toBe(600);
  });

  it('sends an entry larger than the cap alone (the server then rejects only that request)', async () => {
    expect(await idsOf([1, 100_001, 1])).toEqual([[0], [1], [2]]);
  });

  it('makes no batch of an empty input', async () => {
    expect(await idsOf([])).toEqual([]);
  });
});
