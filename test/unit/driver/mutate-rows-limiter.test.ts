import { afterEach, describe, expect, it, vi } from 'vitest';
import { MutateRowsRateLimiter } from '../../../src/driver/mutate-rows-limiter.js';
import { OperationAbortedError } from '../../../src/errors/index.js';

/** The MutateRows rate limiter on a fake clock: when calls may go, and how RateLimitInfo and errors move the rate. */

afterEach(() => {
  vi.useRealTimers();
});

const info = (factor: number, seconds: number): { factor: number; period: { seconds: number } } => ({
  factor,
  period: { seconds },
});

function settledFlag(promise: Promise<unknown>): () => boolean {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return () => settled;
}

describe('MutateRowsRateLimiter', () => {
  it('lets every call go at once until the server sends RateLimitInfo', async () => {
    const limiter = new MutateRowsRateLimiter(() => 0);
    for (let i = 0; i < 100; i++) await limiter.acquire();
    expect(limiter.enabled).toBe(false);
  });

  it('once on, spaces calls evenly at the current rate; an abort while waiting rejects with the typed error', async () => {
    vi.useFakeTimers({ now: 0 });
    const limiter = new MutateRowsRateLimiter(() => Date.now());
    limiter.observe(info(1, 60)); // on, 10 calls/s
    expect(limiter.qps).toBe(10);
    await limiter.acquire();
    const second = limiter.acquire();
    const secondDone = settledFlag(second);
    await vi.advanceTimersByTimeAsync(99);
    expect(secondDone()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(secondDone()).toBe(true);
    const controller = new AbortController();
    const third = limiter.acquire(controller.signal, 'mutateRows "t"');
    controller.abort(new Error('stop'));
    await expect(third).rejects.toBeInstanceOf(OperationAbortedError);
  });

  it('scales the rate by the factor clamped to 0.7..1.3, at most once per period, within 0.1..100,000 calls/s', () => {
    let now = 0;
    const limiter = new MutateRowsRateLimiter(() => now);
    limiter.observe(info(0.01, 2));
    expect(limiter.qps).toBeCloseTo(7, 10);
    limiter.observe(info(1.2, 2));
    expect(limiter.qps).toBeCloseTo(7, 10); // inside the period
    now = 2_000;
    limiter.observe(info(1.2, 2));
    expect(limiter.qps).toBeCloseTo(8.4, 10);
    for (let i = 0; i < 40; i++) {
      now += 2_000;
      limiter.observe(info(0.5, 2));
    }
    expect(limiter.qps).toBe(0.1);
    for (let i = 0; i < 80; i++) {
      now += 2_000;
      limiter.observe(info(100, 2));
    }
    expect(limiter.qps).toBe(100_000);
  });

  it('ignores an invalid RateLimitInfo (factor or period not above 0) and turns off only after the period', () => {
    let now = 0;
    const limiter = new MutateRowsRateLimiter(() => now);
    limiter.observe(info(0, 5));
    limiter.observe(info(1.1, 0));
    expect(limiter.enabled).toBe(false);
    limiter.observe(info(1, 5));
    expect(limiter.enabled).toBe(true);
    now = 4_000;
    limiter.observe(undefined);
    expect(limiter.enabled).toBe(true);
    now = 5_001;
    limiter.observe(null);
    expect(limiter.enabled).toBe(false);
    expect(limiter.qps).toBe(10); // kept for when the server asks again
  });

  it('slows by 0.7 on RESOURCE_EXHAUSTED, DEADLINE_EXCEEDED and UNAVAILABLE, not on other codes', () => {
    let now = 0;
    const limiter = new MutateRowsRateLimiter(() => now);
    limiter.failed(3);
    limiter.failed(13);
    expect(limiter.qps).toBe(10);
    limiter.failed(8);
    expect(limiter.qps).toBeCloseTo(7, 10);
    limiter.failed(14);
    expect(limiter.qps).toBeCloseTo(7, 10); // inside the 10 s period
    now = 10_000;
    limiter.failed(4);
    expect(limiter.qps).toBeCloseTo(4.9, 10);
  });
});
