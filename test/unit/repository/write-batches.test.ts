import { describe, expect, it } from 'vitest';
import { resolveBatchLimits, type BatchLimits } from '../../../src/mutation/batch.js';
import type { CellMutation, CompiledMutation } from '../../../src/model/mutation.js';
import { takeMutations, WriteBatchReader, type WriteBatch } from '../../../src/write/write-batches.js';

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

const items = (sizes: readonly number[]): Item[] => sizes.map((cells, id) => ({ id, cells }));

async function* asyncOf<T>(values: readonly T[]): AsyncGenerator<T> {
  for (const value of values) yield value;
}

/** Every batch of a reader (as row keys per batch) and its compile errors (as `index:message`). */
async function drain(
  input: Iterable<Item> | AsyncIterable<Item>,
  limits: BatchLimits,
): Promise<{ batches: string[][]; indices: number[][]; errors: string[] }> {
  const errors: string[] = [];
  const reader = new WriteBatchReader(input, compile, resolveBatchLimits(limits), (index, entity, err) =>
    errors.push(`${index}:${entity.id}:${(err as Error).message}`),
  );
  const batches: WriteBatch<Item>[] = [];
  for (let b = await reader.next(); b !== undefined; b = await reader.next()) batches.push(b);
  expect(await reader.next()).toBeUndefined();
  return { batches: batches.map((b) => b.rowKeys), indices: batches.map((b) => b.indices), errors };
}

describe('WriteBatchReader', () => {
  it('gives a sync iterable, a generator and an async iterable the same batches and compile errors', async () => {
    const sizes = [1, 40_000, -1, 40_000, 40_000, 2, -1, 60_000, 1, 1, 1, 1, 1, 1, 100_001, 1];
    for (const limits of [{ maxEntries: 3 }, { maxEntries: 500 }, { maxEntries: 2, maxMutations: 3 }]) {
      const fromArray = await drain(items(sizes), limits);
      const fromGenerator = await drain(
        (function* (): Generator<Item> {
          yield* items(sizes);
        })(),
        limits,
      );
      const fromAsync = await drain(asyncOf(items(sizes)), limits);
      expect(fromGenerator).toEqual(fromArray);
      expect(fromAsync).toEqual(fromArray);
      expect(fromArray.errors).toEqual(['2:2:bad 2', '6:6:bad 6']);
    }
  });

  it('keeps each row with its input index and entity', async () => {
    const input = items([1, -1, 1, 1]);
    const reader = new WriteBatchReader(input, compile, resolveBatchLimits({ maxEntries: 2 }), () => undefined);
    const first = await reader.next();
    expect(first?.indices).toEqual([0, 2]);
    expect(first?.entities).toEqual([input[0], input[2]]);
    expect(first?.mutations.map((m) => m.rowKeyText)).toEqual(['k0', 'k2']);
  });

  it('reads a sync input lazily: a batch is read when asked for, up to the entry that closes it', async () => {
    let pulled = 0;
    function* counted(): Generator<Item> {
      for (let id = 0; id < 10; id++) {
        pulled += 1;
        yield { id, cells: 1 };
      }
    }
    const reader = new WriteBatchReader(counted(), compile, resolveBatchLimits({ maxEntries: 3 }), () => undefined);
    expect(pulled).toBe(0);
    expect((await reader.next())?.rowKeys).toEqual(['k0', 'k1', 'k2']);
    expect(pulled).toBe(4);
    expect((await reader.next())?.rowKeys).toEqual(['k3', 'k4', 'k5']);
    expect(pulled).toBe(7);
  });

  it('serves overlapping calls one at a time, in order', async () => {
    async function* slow(): AsyncGenerator<Item> {
      for (let id = 0; id < 7; id++) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        yield { id, cells: 1 };
      }
    }
    const reader = new WriteBatchReader(slow(), compile, resolveBatchLimits({ maxEntries: 2 }), () => undefined);
    const results = await Promise.all([reader.next(), reader.next(), reader.next(), reader.next(), reader.next()]);
    expect(results.map((b) => b?.rowKeys)).toEqual([['k0', 'k1'], ['k2', 'k3'], ['k4', 'k5'], ['k6'], undefined]);
  });

  it('awaits promises in a sync input, as for await does', async () => {
    const input: Iterable<Item> = [
      { id: 0, cells: 1 },
      Promise.resolve({ id: 1, cells: 1 }) as unknown as Item,
      { id: 2, cells: 1 },
    ];
    expect((await drain(input, { maxEntries: 500 })).batches).toEqual([['k0', 'k1', 'k2']]);
  });

  it('rejects with the input’s error, then ends without the rows it had read', async () => {
    function* failing(): Generator<Item> {
      yield { id: 0, cells: 1 };
      yield { id: 1, cells: 1 };
      yield { id: 2, cells: 1 };
      throw new Error('input broke');
    }
    for (const input of [
      failing(),
      (async function* (): AsyncGenerator<Item> {
        yield* failing();
      })(),
    ]) {
      const reader = new WriteBatchReader(input, compile, resolveBatchLimits({ maxEntries: 2 }), () => undefined);
      expect((await reader.next())?.rowKeys).toEqual(['k0', 'k1']);
      await expect(reader.next()).rejects.toThrow('input broke');
      expect(await reader.next()).toBeUndefined();
      expect(reader.dropped).toEqual([2]);
      expect(reader.read).toBe(3);
      expect(reader.exhausted).toBe(false);
    }
  });

  it('counts what it read and knows when the input is exhausted', async () => {
    const reader = new WriteBatchReader(
      items([1, 1, 1]),
      compile,
      resolveBatchLimits({ maxEntries: 2 }),
      () => undefined,
    );
    await reader.next();
    expect([reader.read, reader.exhausted]).toEqual([3, false]);
    await reader.next();
    expect([reader.read, reader.exhausted, reader.dropped]).toEqual([3, true, []]);
  });

  it('stops at an abort: a pending next() resolves undefined at once, the rows read into the open batch are dropped, the input is closed', async () => {
    const controller = new AbortController();
    let release!: () => void;
    let closed = false;
    async function* stuck(): AsyncGenerator<Item> {
      try {
        yield { id: 0, cells: 1 };
        yield { id: 1, cells: 1 };
        yield { id: 2, cells: 1 };
        await new Promise<void>((resolve) => (release = resolve));
        yield { id: 3, cells: 1 };
      } finally {
        closed = true;
      }
    }
    const reader = new WriteBatchReader(
      stuck(),
      compile,
      resolveBatchLimits({ maxEntries: 2 }),
      () => undefined,
      controller.signal,
    );
    expect((await reader.next())?.rowKeys).toEqual(['k0', 'k1']);
    const pending = reader.next();
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error('stop'));
    expect(await pending).toBeUndefined();
    expect(reader.dropped).toEqual([2]);
    expect(reader.read).toBe(3);
    expect(reader.exhausted).toBe(false);
    release();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(closed).toBe(true);
    expect(await reader.next()).toBeUndefined();
    expect(reader.read).toBe(3);
  });

  it('stops when the signal aborts while a sync input produces an entity: that entity counts as never read', async () => {
    const controller = new AbortController();
    let closed = false;
    function* aborting(): Generator<Item> {
      try {
        for (let id = 0; id < 10; id++) {
          if (id === 3) controller.abort();
          yield { id, cells: 1 };
        }
      } finally {
        closed = true;
      }
    }
    const reader = new WriteBatchReader(
      aborting(),
      compile,
      resolveBatchLimits({ maxEntries: 2 }),
      () => undefined,
      controller.signal,
    );
    expect((await reader.next())?.rowKeys).toEqual(['k0', 'k1']);
    expect(await reader.next()).toBeUndefined();
    expect([reader.dropped, reader.read, reader.exhausted]).toEqual([[2], 3, false]);
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(closed).toBe(true);
  });

  it('reads nothing once its signal has aborted', async () => {
    let pulled = 0;
    function* counted(): Generator<Item> {
      for (let id = 0; id < 10; id++) {
        pulled += 1;
        yield { id, cells: 1 };
      }
    }
    const reader = new WriteBatchReader(
      counted(),
      compile,
      resolveBatchLimits({ maxEntries: 2 }),
      () => undefined,
      AbortSignal.abort(),
    );
    expect(await reader.next()).toBeUndefined();
    expect([pulled, reader.read, reader.exhausted]).toEqual([0, 0, false]);
  });

  it('drop(batch) lists a batch that was handed out but never sent', async () => {
    const reader = new WriteBatchReader(
      items([1, 1, 1]),
      compile,
      resolveBatchLimits({ maxEntries: 2 }),
      () => undefined,
    );
    const first = (await reader.next()) as WriteBatch<Item>;
    reader.drop(first);
    expect(reader.dropped).toEqual([0, 1]);
  });
});

/** The row ids of each batch a reader makes of rows with these cell counts. */
async function idsOf(sizes: readonly number[], limits: BatchLimits = {}): Promise<number[][]> {
  const reader = new WriteBatchReader(asyncOf(items(sizes)), compile, resolveBatchLimits(limits), () => undefined);
  const out: number[][] = [];
  for (let b = await reader.next(); b !== undefined; b = await reader.next())
    out.push(b.entities.map((item) => item.id));
  return out;
}

describe('WriteBatchReader batch limits', () => {
  it('splits by maxEntries, keeping input order', async () => {
    expect(await idsOf([1, 1, 1, 1, 1, 1, 1], { maxEntries: 3 })).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
  });

  it('defaults to 500 entries per batch', async () => {
    expect((await idsOf(new Array<number>(1001).fill(2))).map((b) => b.length)).toEqual([500, 500, 1]);
  });

  it('never puts more than 100,000 cell mutations in one batch, and fills one exactly up to the cap', async () => {
    expect(await idsOf([40_000, 40_000, 40_000, 60_000, 40_000, 1], { maxEntries: 500 })).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
    expect((await idsOf([50_000, 50_000, 1])).map((b) => b.length)).toEqual([2, 1]);
  });

  it('caps a larger maxMutations at 100,000 and honours a smaller one', async () => {
    expect((await idsOf([60_000, 60_000], { maxMutations: 1_000_000 })).map((b) => b.length)).toEqual([1, 1]);
    expect((await idsOf([2, 2, 2, 2, 2], { maxMutations: 5 })).map((b) => b.length)).toEqual([2, 2, 1]);
  });

  it('closes a batch at the byte limit before the entry limit, whichever comes first', async () => {
    const sized = (n: number, bytes: number): Item[] => Array.from({ length: n }, (_, id) => ({ id, cells: 1, bytes }));
    const reader = (input: Item[], limits: BatchLimits) =>
      new WriteBatchReader(asyncOf(input), compile, resolveBatchLimits(limits), () => undefined);
    async function sizes(input: Item[], limits: BatchLimits): Promise<number[]> {
      const r = reader(input, limits);
      const out: number[] = [];
      for (let b = await r.next(); b !== undefined; b = await r.next()) out.push(b.indices.length);
      return out;
    }
    expect(await sizes(sized(10, 3_000), { maxEntries: 500, maxBytes: 10_000 })).toEqual([3, 3, 3, 1]);
    expect(await sizes(sized(10, 3_000), { maxEntries: 2, maxBytes: 10_000 })).toEqual([2, 2, 2, 2, 2]);
    expect(await sizes(sized(3, 50_000), { maxBytes: 10_000 })).toEqual([1, 1, 1]);
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

  it('reads an endless async input lazily, one batch at a time', async () => {
    let pulled = 0;
    async function* endless(): AsyncGenerator<Item> {
      for (let id = 0; ; id++) {
        pulled += 1;
        yield { id, cells: 1 };
      }
    }
    const reader = new WriteBatchReader(endless(), compile, resolveBatchLimits({ maxEntries: 2 }), () => undefined);
    expect((await reader.next())?.rowKeys).toEqual(['k0', 'k1']);
    expect(pulled).toBe(3); // the third item is what closes the first batch
    expect((await reader.next())?.rowKeys).toEqual(['k2', 'k3']);
    expect(pulled).toBe(5);
  });
});

describe('takeMutations', () => {
  it('hands the compiled rows over and leaves the batch’s report data', async () => {
    const reader = new WriteBatchReader(items([1, 1]), compile, resolveBatchLimits(), () => undefined);
    const batch = (await reader.next()) as WriteBatch<Item>;
    const taken = takeMutations(batch);
    expect(taken.map((m) => m.rowKeyText)).toEqual(['k0', 'k1']);
    expect(batch.mutations).toEqual([]);
    expect(batch.rowKeys).toEqual(['k0', 'k1']);
    expect(batch.indices).toEqual([0, 1]);
  });
});
