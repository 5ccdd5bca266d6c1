import { describe, expect, it } from 'vitest';
import { batchMutations, closesBatch, MAX_MUTATIONS_PER_REQUEST, resolveBatchLimits } from '../../../src/mutation/batch.js';
import type { CellMutation, CompiledMutation } from '../../../src/mutation/compiled-mutation.js';

const cell: CellMutation = { kind: 'deleteFromRow' };

function mutation(id: number, cells = 1): CompiledMutation {
  return { table: 't', rowKey: Buffer.from(`k${id}`), rowKeyText: `k${id}`, mutations: new Array<CellMutation>(cells).fill(cell), idempotent: true };
}

async function* items(sizes: readonly number[]): AsyncGenerator<{ mutation: CompiledMutation; id: number }> {
  for (const [id, cells] of sizes.entries()) yield { mutation: mutation(id, cells), id };
}

async function collect<T>(batches: AsyncIterable<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const b of batches) out.push(b);
  return out;
}

describe('batchMutations', () => {
  it('splits by maxEntries, keeping input order and extra fields', async () => {
    const batches = await collect(batchMutations(items([1, 1, 1, 1, 1, 1, 1]), { maxEntries: 3 }));
    expect(batches.map((b) => b.map((x) => x.id))).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
    expect(batches[0]?.[0]?.mutation.rowKeyText).toBe('k0');
  });

  it('defaults to 500 entries per batch', async () => {
    const batches = await collect(batchMutations(items(new Array<number>(1001).fill(2))));
    expect(batches.map((b) => b.length)).toEqual([500, 500, 1]);
  });

  it('never puts more than 100,000 cell mutations in one batch', async () => {
    expect(MAX_MUTATIONS_PER_REQUEST).toBe(100_000);
    const batches = await collect(batchMutations(items([40_000, 40_000, 40_000, 60_000, 40_000, 1]), { maxEntries: 500 }));
    expect(batches.map((b) => b.map((x) => x.id))).toEqual([[0, 1], [2, 3], [4, 5]]);
    for (const b of batches) expect(b.reduce((n, x) => n + x.mutation.mutations.length, 0)).toBeLessThanOrEqual(100_000);
  });

  it('fills a batch exactly up to the cap', async () => {
    const batches = await collect(batchMutations(items([50_000, 50_000, 1])));
    expect(batches.map((b) => b.length)).toEqual([2, 1]);
  });

  it('caps a larger maxMutations at 100,000 and honours a smaller one', async () => {
    expect((await collect(batchMutations(items([60_000, 60_000]), { maxMutations: 1_000_000 }))).map((b) => b.length)).toEqual([1, 1]);
    expect((await collect(batchMutations(items([2, 2, 2, 2, 2]), { maxMutations: 5 }))).map((b) => b.length)).toEqual([2, 2, 1]);
  });

  it('sends an entry larger than the cap alone (the server then rejects only that request)', async () => {
    expect((await collect(batchMutations(items([1, 100_001, 1])))).map((b) => b.map((x) => x.id))).toEqual([[0], [1], [2]]);
  });

  it('yields nothing for an empty input', async () => {
    expect(await collect(batchMutations(items([])))).toEqual([]);
  });

  it('reads an endless async input lazily and closes it when the consumer stops', async () => {
    let pulled = 0;
    let closed = false;
    async function* endless(): AsyncGenerator<{ mutation: CompiledMutation }> {
      try {
        for (let i = 0; ; i++) {
          pulled += 1;
          yield { mutation: mutation(i) };
        }
      } finally {
        closed = true;
      }
    }
    const batches = batchMutations(endless(), { maxEntries: 2 });
    const first = await batches.next();
    expect(first.done).toBe(false);
    expect(first.value?.map((x: { mutation: CompiledMutation }) => x.mutation.rowKeyText)).toEqual(['k0', 'k1']);
    expect(pulled).toBe(3); // the third item is what closes the first batch
    const second = await batches.next();
    expect(second.value?.map((x: { mutation: CompiledMutation }) => x.mutation.rowKeyText)).toEqual(['k2', 'k3']);
    expect(pulled).toBe(5);
    await batches.return(undefined);
    expect(closed).toBe(true);
  });
});

describe('resolveBatchLimits and closesBatch', () => {
  it('default to 500 rows and cap mutations at 100,000', () => {
    expect(resolveBatchLimits()).toEqual({ maxEntries: 500, maxMutations: 100_000 });
    expect(resolveBatchLimits({ maxEntries: 3, maxMutations: 1_000_000 })).toEqual({ maxEntries: 3, maxMutations: 100_000 });
    expect(resolveBatchLimits({ maxMutations: 10 })).toEqual({ maxEntries: 500, maxMutations: 10 });
  });

  it('close a full batch, or one the next row would push over the mutation limit, never an empty one', () => {
    const limits = resolveBatchLimits({ maxEntries: 3, maxMutations: 10 });
    expect(closesBatch(3, 3, 1, limits)).toBe(true);
    expect(closesBatch(2, 9, 1, limits)).toBe(false);
    expect(closesBatch(2, 9, 2, limits)).toBe(true);
    expect(closesBatch(0, 0, 50, limits)).toBe(false);
  });
});
