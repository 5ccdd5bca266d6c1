import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../../src/errors/errors.js';
import { byKey, collect, FakeSource, tagged } from '../../support/fake-sources.js';
import type { Tagged } from '../../support/fake-sources.js';
import { mergeOrdered } from '../../support/item-merges.js';

const sortedLists = fc
  .array(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 20 }), { minLength: 1, maxLength: 16 })
  .map((lists) => lists.map((keys) => [...keys].sort((a, b) => a - b)));

function fakesOf(lists: readonly (readonly number[])[]): FakeSource<Tagged>[] {
  return tagged(lists).map((items) => new FakeSource(items));
}

describe('mergeOrdered', () => {
  it('yields the stable sorted concatenation of sorted sources (k = 1..16, empty sources, duplicates)', async () => {
    await fc.assert(
      fc.asyncProperty(sortedLists, async (lists) => {
        const fakes = fakesOf(lists);
        const out = await collect(
          mergeOrdered(
            fakes.map((f) => f.factory),
            byKey,
          ),
        );
        expect(out).toEqual(tagged(lists).flat().sort(byKey));
        expect(fakes.every((f) => f.exhausted && !f.cancelled)).toBe(true);
      }),
    );
  });

  it('with a limit yields the n smallest, then cancels every source still open', async () => {
    await fc.assert(
      fc.asyncProperty(sortedLists, fc.nat({ max: 40 }), async (lists, limit) => {
        const fakes = fakesOf(lists);
        const out = await collect(
          mergeOrdered(
            fakes.map((f) => f.factory),
            byKey,
            { limit },
          ),
        );
        expect(out).toEqual(tagged(lists).flat().sort(byKey).slice(0, limit));
        expect(fakes.filter((f) => f.live)).toEqual([]);
      }),
    );
  });

  it('opens no source for limit 0', async () => {
    const fakes = fakesOf([[1], [2]]);
    expect(
      await collect(
        mergeOrdered(
          fakes.map((f) => f.factory),
          byKey,
          { limit: 0 },
        ),
      ),
    ).toEqual([]);
    expect(fakes.map((f) => f.opens)).toEqual([0, 0]);
  });

  it('cancels every source when the consumer breaks after the first item', async () => {
    const fakes = tagged([
      [1, 4, 7],
      [2, 5],
      [3, 6, 9],
    ]).map((items) => new FakeSource(items, { delayMs: 1 }));
    for await (const row of mergeOrdered(
      fakes.map((f) => f.factory),
      byKey,
    )) {
      expect(row.key).toBe(1);
      break;
    }
    expect(fakes.map((f) => f.cancelled)).toEqual([true, true, true]);
    expect(fakes.filter((f) => f.live)).toEqual([]);
  });

  it('return() cancels at once even while a next() waits on a stalled source', async () => {
    const stalled = new FakeSource<Tagged>([], { stall: true });
    const quick = new FakeSource(tagged([[1, 2]])[0] ?? []);
    const merge = mergeOrdered([quick.factory, stalled.factory], byKey);
    const pending = merge.next();
    await vi.waitFor(() => expect(stalled.pulls).toBe(1));
    await merge.return?.();
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
    expect([quick.cancelled, stalled.cancelled]).toEqual([true, true]);
  });

  it('propagates an error from one source and cancels the others', async () => {
    const boom = new Error('bucket 2 failed');
    const lists = tagged([
      [1, 2, 3, 4],
      [1, 5, 9],
      [2, 3, 4, 5, 6],
    ]);
    const fakes = lists.map(
      (items, i) => new FakeSource(items, i === 2 ? { failAfter: 2, error: boom, delayMs: 1 } : { delayMs: 1 }),
    );
    await expect(
      collect(
        mergeOrdered(
          fakes.map((f) => f.factory),
          byKey,
        ),
      ),
    ).rejects.toBe(boom);
    expect(fakes[2]?.failed).toBe(true);
    expect(fakes.filter((f) => f.live)).toEqual([]);
  });

  it('propagates an error thrown by a source factory and cancels the sources already open', async () => {
    const open = new FakeSource(tagged([[1, 2]])[0] ?? []);
    const broken = (): never => {
      throw new Error('cannot open range');
    };
    await expect(collect(mergeOrdered([open.factory, broken], byKey))).rejects.toThrow('cannot open range');
    expect(open.cancelled).toBe(true);
  });

  it('is pull-based: 8 sources of 100,000 items, 10 read, each source at most one item ahead', async () => {
    const k = 8;
    const fakes = Array.from(
      { length: k },
      (_, s) => new FakeSource({ count: 100_000, at: (i) => ({ key: i * k + s, source: s, position: i }) }),
    );
    const consumed = new Array<number>(k).fill(0);
    let read = 0;
    for await (const row of mergeOrdered(
      fakes.map((f) => f.factory),
      byKey,
    )) {
      consumed[row.source] = (consumed[row.source] ?? 0) + 1;
      if (++read === 10) break;
    }
    fakes.forEach((fake, s) => expect(fake.produced).toBeLessThanOrEqual((consumed[s] ?? 0) + 1));
    expect(Math.max(...fakes.map((f) => f.produced))).toBeLessThanOrEqual(3);
    expect(fakes.every((f) => f.cancelled)).toBe(true);
  });

  it('rejects a negative or fractional limit with a ValidationError', () => {
    expect(() => mergeOrdered([], byKey, { limit: -1 })).toThrow(ValidationError);
    expect(() => mergeOrdered([], byKey, { limit: 1.5 })).toThrow(/limit must be a non-negative integer/);
  });
});
