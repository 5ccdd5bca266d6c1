import { concatMap, firstValueFrom, lastValueFrom, map, take, tap, timer, toArray } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { batchesToObservable, concatMapFromIterable } from '../../../src/stream/observable.js';
import type { MappedBatches } from '../../../src/stream/batch-stream.js';
import {
  mergeOrdered as mergeOrderedBatches,
  mergeUnordered as mergeUnorderedBatches,
} from '../../../src/stream/merge.js';
import { byKey, FakeSource } from '../../support/fake-sources.js';
import type { Tagged } from '../../support/fake-sources.js';
import { mergeOrdered, mergeUnordered } from '../../support/item-merges.js';

function bigFakes(k: number, count: number, delayMs?: number): FakeSource<Tagged>[] {
  const options = delayMs === undefined ? {} : { delayMs };
  return Array.from(
    { length: k },
    (_, s) => new FakeSource({ count, at: (i) => ({ key: i * k + s, source: s, position: i }) }, options),
  );
}

const producedBy = (fakes: readonly FakeSource<Tagged>[]): number => fakes.reduce((sum, f) => sum + f.produced, 0);

/** An ordered merge as a scan's Observable reads it: its batch stream, items as they are. */
function ordered<T>(...args: Parameters<typeof mergeOrderedBatches<T>>): MappedBatches<T, T> {
  return { stream: mergeOrderedBatches(...args), map: (item) => item };
}

/** An unordered merge as a scan's Observable reads it. */
function unordered<T>(...args: Parameters<typeof mergeUnorderedBatches<T>>): MappedBatches<T, T> {
  return { stream: mergeUnorderedBatches(...args), map: (item) => item };
}

describe('batchesToObservable', () => {
  it('is cold: each subscription runs the factory and gets its own scan', async () => {
    const factory = vi.fn(() =>
      ordered(
        bigFakes(2, 3).map((f) => f.factory),
        byKey,
      ),
    );
    const rows$ = batchesToObservable(factory);
    expect(factory).not.toHaveBeenCalled();
    const [a, b] = await Promise.all([lastValueFrom(rows$.pipe(toArray())), lastValueFrom(rows$.pipe(toArray()))]);
    expect(factory).toHaveBeenCalledTimes(2);
    expect(a.map((t) => t.key)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(b).toEqual(a);
  });

  it('take(1) cancels every source', async () => {
    const fakes = bigFakes(4, 1000, 1);
    const first = await firstValueFrom(
      batchesToObservable(() =>
        ordered(
          fakes.map((f) => f.factory),
          byKey,
        ),
      ).pipe(take(1)),
    );
    expect(first.key).toBe(0);
    await vi.waitFor(() => expect(fakes.every((f) => f.cancelled)).toBe(true));
    expect(fakes.filter((f) => f.live)).toEqual([]);
  });

  it('unsubscribing while a pull is pending cancels every source', async () => {
    const fakes = bigFakes(3, 1000, 5);
    const subscription = batchesToObservable(() =>
      unordered(
        fakes.map((f) => f.factory),
        { concurrency: 3 },
      ),
    ).subscribe();
    await vi.waitFor(() => expect(fakes.every((f) => f.opens === 1)).toBe(true));
    subscription.unsubscribe();
    await vi.waitFor(() => expect(fakes.every((f) => f.cancelled)).toBe(true));
  });

  it('sends a source error to `error` and cancels the other sources', async () => {
    const boom = new Error('range failed');
    const failing = new FakeSource<Tagged>(
      { count: 1000, at: (i) => ({ key: 3 * i, source: 0, position: i }) },
      { failAfter: 5, error: boom },
    );
    const fakes = [failing, ...bigFakes(2, 1000, 1)];
    await expect(
      lastValueFrom(
        batchesToObservable(() =>
          ordered(
            fakes.map((f) => f.factory),
            byKey,
          ),
        ),
      ),
    ).rejects.toBe(boom);
    expect(fakes.filter((f) => f.live)).toEqual([]);
  });

  it('applies map to each item as it is emitted: a map error follows the items before it and cancels the stream', async () => {
    const fake = new FakeSource([1, 2, 3, 4]);
    const seen: number[] = [];
    const rows$ = batchesToObservable(() => ({
      stream: fake.factory(),
      map: (n: number) => {
        if (n === 3) throw new Error('cannot map 3');
        return n * 10;
      },
    }));
    await expect(lastValueFrom(rows$.pipe(tap((n) => seen.push(n))))).rejects.toThrow('cannot map 3');
    expect(seen).toEqual([10, 20]);
    expect(fake.cancelled).toBe(true);
  });

  it('sends a factory error to `error`', async () => {
    const rows$ = batchesToObservable<number, number>(() => {
      throw new Error('bad plan');
    });
    await expect(lastValueFrom(rows$)).rejects.toThrow('bad plan');
  });

  it('is paced by a synchronous subscriber: sources stay one item ahead of what it received', async () => {
    const fakes = bigFakes(4, 10_000);
    let received = 0;
    const rows$ = batchesToObservable(() =>
      ordered(
        fakes.map((f) => f.factory),
        byKey,
      ),
    ).pipe(
      tap(() => {
        received += 1;
        expect(producedBy(fakes)).toBeLessThanOrEqual(received + fakes.length);
      }),
      take(2000),
    );
    await lastValueFrom(rows$);
    expect(producedBy(fakes)).toBeLessThanOrEqual(2000 + fakes.length);
  });

  it('documents the limit of RxJS: a slow concatMap buffers upstream rows itself, so sources run ahead', async () => {
    const fakes = bigFakes(4, 250);
    let producedAtFirstResult = -1;
    const rows$ = batchesToObservable(() =>
      ordered(
        fakes.map((f) => f.factory),
        byKey,
      ),
    ).pipe(
      concatMap((row) => timer(2).pipe(map(() => row))),
      tap(() => {
        if (producedAtFirstResult < 0) producedAtFirstResult = producedBy(fakes);
      }),
      take(3),
    );
    await lastValueFrom(rows$);
    expect(producedAtFirstResult).toBe(1000);
  });
});

describe('concatMapFromIterable', () => {
  it('keeps a slow consumer bounded: sources never run more than one item per source ahead', async () => {
    const fakes = bigFakes(8, 100_000);
    let consumed = 0;
    let maxAhead = 0;
    const done$ = concatMapFromIterable(
      () =>
        mergeOrdered(
          fakes.map((f) => f.factory),
          byKey,
        ),
      (row) =>
        timer(1).pipe(
          map(() => {
            consumed += 1;
            maxAhead = Math.max(maxAhead, producedBy(fakes) - consumed);
            return row.key;
          }),
        ),
    ).pipe(take(30), toArray());
    expect(await lastValueFrom(done$)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(maxAhead).toBeLessThanOrEqual(fakes.length);
    expect(producedBy(fakes)).toBeLessThanOrEqual(30 + fakes.length);
    await vi.waitFor(() => expect(fakes.every((f) => f.cancelled)).toBe(true));
  });

  it('pulls the next item only after the inner observable completed, and forwards every inner value', async () => {
    const fake = new FakeSource([1, 2, 3]);
    const out = await lastValueFrom(
      concatMapFromIterable(
        () => mergeUnordered([fake.factory], { concurrency: 1 }),
        (n, index) => {
          expect(fake.produced).toBe(index + 1);
          return [n, n * 10];
        },
      ).pipe(toArray()),
    );
    expect(out).toEqual([1, 10, 2, 20, 3, 30]);
  });

  it('sends a project error to `error` and cancels the sources', async () => {
    const fakes = bigFakes(2, 1000);
    const out$ = concatMapFromIterable(
      () =>
        mergeOrdered(
          fakes.map((f) => f.factory),
          byKey,
        ),
      (row) => {
        if (row.key === 3) throw new Error('cannot save row 3');
        return [row.key];
      },
    );
    await expect(lastValueFrom(out$)).rejects.toThrow('cannot save row 3');
    await vi.waitFor(() => expect(fakes.every((f) => f.cancelled)).toBe(true));
  });
});
