import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concatReadAhead } from '../../../src/stream/concat-read-ahead.js';
import { collect, FakeSource, OpenTracker, tagged } from '../../support/fake-sources.js';
import { propertyRuns } from '../../support/property-runs.js';

const lists = fc.array(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 12 }), { minLength: 1, maxLength: 12 });
const bounds = { items: 3, size: Number.POSITIVE_INFINITY, sizeOf: () => 1 };

async function* items<T>(stream: AsyncIterable<readonly T[]>): AsyncGenerator<T> {
  for await (const batch of stream) yield* batch;
}

describe('concatReadAhead', () => {
  it('yields every source in order, never more than `window` open, each read at most `items` ahead', async () => {
    await fc.assert(
      fc.asyncProperty(lists, fc.integer({ min: 1, max: 5 }), async (keys, window) => {
        const tracker = new OpenTracker();
        const fakes = tagged(keys).map((list) => new FakeSource(list, { tracker }));
        const stream = concatReadAhead(
          fakes.map((f) => f.factory),
          { window, ...bounds },
        );
        const out = [];
        let delivered = 0;
        for await (const item of items(stream)) {
          out.push(item);
          delivered += 1;
          const produced = fakes.reduce((sum, f) => sum + f.produced, 0);
          // Each open source holds at most `items` read ahead, plus the batch being read.
          expect(produced - delivered).toBeLessThanOrEqual(window * (bounds.items + 1));
        }
        expect(out).toEqual(tagged(keys).flat());
        expect(tracker.max).toBeLessThanOrEqual(window);
        expect(fakes.every((f) => f.opens === 1 && f.exhausted)).toBe(true);
      }),
      { numRuns: propertyRuns(100) },
    );
  });

  it('reads the next sources while the first is delivered', async () => {
    const tracker = new OpenTracker();
    const fakes = [0, 1, 2, 3].map((s) => new FakeSource(tagged([[s, s, s, s]])[0] ?? [], { tracker, delayMs: 1 }));
    const stream = concatReadAhead(
      fakes.map((f) => f.factory),
      { window: 3, ...bounds },
    );
    const first = await stream.next();
    expect(first.done).toBe(false);
    expect(tracker.max).toBe(3);
    await stream.return();
    expect(fakes.filter((f) => f.opens > 0).every((f) => f.cancelled || f.exhausted)).toBe(true);
    expect(fakes[3]?.opens).toBe(0);
  });

  it("fails with a source's error when the reader reaches it, cancelling the others", async () => {
    const error = new Error('piece 1 failed');
    const fakes = [
      new FakeSource(tagged([[1, 2, 3]])[0] ?? []),
      new FakeSource(tagged([[4, 5]])[0] ?? [], { failAfter: 1, error }),
      new FakeSource(tagged([[6, 7]])[0] ?? [], { delayMs: 5 }),
    ];
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const item of items(
          concatReadAhead(
            fakes.map((f) => f.factory),
            { window: 3, ...bounds },
          ),
        ))
          seen.push(item.key);
      })(),
    ).rejects.toBe(error);
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(fakes[2]?.live).toBe(false);
  });

  it('opens nothing before the first pull, and an empty list ends at once', async () => {
    const fake = new FakeSource([1]);
    concatReadAhead([fake.factory], { window: 2, ...bounds });
    expect(fake.opens).toBe(0);
    expect(await collect(items(concatReadAhead([], { window: 2, ...bounds })))).toEqual([]);
  });
});
