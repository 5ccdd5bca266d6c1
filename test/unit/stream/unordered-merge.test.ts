import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../../src/errors/errors.js';
import { byIdentity, collect, FakeSource, OpenTracker, tagged } from '../../support/fake-sources.js';
import type { Tagged } from '../../support/fake-sources.js';
import { mergeUnordered } from '../../support/item-merges.js';
import { propertyRuns } from '../../support/property-runs.js';

const lists = fc.array(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 15 }), { minLength: 1, maxLength: 16 });

describe('mergeUnordered', () => {
  it('yields a permutation of all items and never opens more than `concurrency` sources', async () => {
    await fc.assert(
      fc.asyncProperty(lists, fc.integer({ min: 1, max: 6 }), async (keys, concurrency) => {
        const tracker = new OpenTracker();
        const fakes = tagged(keys).map((items) => new FakeSource(items, { tracker }));
        const out = await collect(
          mergeUnordered(
            fakes.map((f) => f.factory),
            { concurrency },
          ),
        );
        expect([...out].sort(byIdentity)).toEqual(tagged(keys).flat());
        expect(tracker.max).toBeLessThanOrEqual(concurrency);
        expect(fakes.every((f) => f.opens === 1 && f.exhausted)).toBe(true);
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it('keeps `concurrency` sources open with delayed sources, opening the next when one ends', async () => {
    const tracker = new OpenTracker();
    const fakes = Array.from(
      { length: 10 },
      (_, s) => new FakeSource(tagged([[s, s, s]])[0] ?? [], { tracker, delayMs: 1 + (s % 3) }),
    );
    const out = await collect(
      mergeUnordered(
        fakes.map((f) => f.factory),
        { concurrency: 3 },
      ),
    );
    expect(out).toHaveLength(30);
    expect(tracker.max).toBe(3);
    expect(tracker.current).toBe(0);
  });

  it('with a limit yields exactly n items, cancels the open sources and never opens the rest', async () => {
    await fc.assert(
      fc.asyncProperty(lists, fc.integer({ min: 1, max: 4 }), fc.nat({ max: 40 }), async (keys, concurrency, limit) => {
        const fakes = tagged(keys).map((items) => new FakeSource(items));
        const out = await collect(
          mergeUnordered(
            fakes.map((f) => f.factory),
            { concurrency, limit },
          ),
        );
        const all = tagged(keys).flat();
        expect(out).toHaveLength(Math.min(limit, all.length));
        expect(new Set(out.map((t) => `${t.source}:${t.position}`)).size).toBe(out.length);
        expect(fakes.filter((f) => f.live)).toEqual([]);
      }),
      { numRuns: propertyRuns(60) },
    );
  });

  it('cancels every open source when the consumer breaks, and leaves unreached sources unopened', async () => {
    const fakes = Array.from({ length: 6 }, (_, s) => new FakeSource(tagged([[s, s, s]])[0] ?? [], { delayMs: 1 }));
    for await (const row of mergeUnordered(
      fakes.map((f) => f.factory),
      { concurrency: 2 },
    )) {
      expect(row.position).toBe(0);
      break;
    }
    expect(fakes.map((f) => f.cancelled)).toEqual([true, true, false, false, false, false]);
    expect(fakes.slice(2).every((f) => f.opens === 0)).toBe(true);
  });

  it('return() cancels at once even while a next() waits on a stalled source', async () => {
    const stalled = new FakeSource<Tagged>([], { stall: true });
    const merge = mergeUnordered([stalled.factory], { concurrency: 1 });
    const pending = merge.next();
    await vi.waitFor(() => expect(stalled.pulls).toBe(1));
    await merge.return?.();
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
    expect(stalled.cancelled).toBe(true);
  });

  it('propagates an error from one source and cancels the others', async () => {
    const boom = new Error('bucket 1 failed');
    const fakes = tagged([
      [1, 2, 3, 4, 5],
      [1, 2, 3],
      [4, 5, 6, 7],
    ]).map((items, i) => new FakeSource(items, i === 1 ? { failAfter: 1, error: boom } : { delayMs: 2 }));
    await expect(
      collect(
        mergeUnordered(
          fakes.map((f) => f.factory),
          { concurrency: 3 },
        ),
      ),
    ).rejects.toBe(boom);
    expect(fakes[1]?.failed).toBe(true);
    expect(fakes.filter((f) => f.live)).toEqual([]);
  });

  it('is pull-based: open sources are at most one item ahead of the consumer', async () => {
    const fakes = Array.from(
      { length: 8 },
      (_, s) => new FakeSource({ count: 100_000, at: (i) => ({ key: i, source: s, position: i }) }),
    );
    const consumed = new Array<number>(8).fill(0);
    let read = 0;
    for await (const row of mergeUnordered(
      fakes.map((f) => f.factory),
      { concurrency: 4 },
    )) {
      consumed[row.source] = (consumed[row.source] ?? 0) + 1;
      fakes.forEach((fake, s) => expect(fake.produced).toBeLessThanOrEqual((consumed[s] ?? 0) + 1));
      if (++read === 500) break;
    }
    expect(fakes.slice(4).every((f) => f.opens === 0)).toBe(true);
    expect(fakes.slice(0, 4).every((f) => f.cancelled)).toBe(true);
  });

  it('serves ready sources first come, first served (no source starves)', async () => {
    const fakes = Array.from(
      { length: 3 },
      (_, s) => new FakeSource({ count: 1000, at: (i) => ({ key: i, source: s, position: i }) }),
    );
    const out = await collect(
      mergeUnordered(
        fakes.map((f) => f.factory),
        { concurrency: 3, limit: 30 },
      ),
    );
    expect(new Set(out.map((t) => t.source))).toEqual(new Set([0, 1, 2]));
  });

  it('rejects a concurrency that is not a positive integer with a ValidationError', () => {
    expect(() => mergeUnordered([], { concurrency: 0 })).toThrow(ValidationError);
    expect(() => mergeUnordered([], { concurrency: Number.NaN })).toThrow(/concurrency must be a positive integer/);
  });
});
