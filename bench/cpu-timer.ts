import { performance } from 'node:perf_hooks';
import { collectGarbage, median } from './measure.js';
import { keep } from './read-sample.js';

/**
 * Nanoseconds per call of `fn(i)` over `iterations` calls (i = 0, 1, …):
 * one warm-up pass of a fifth of the calls, then `rounds` timed passes, each
 * after a full GC when exposed; the median pass wins. Results are kept reachable so the work is not optimised away.
 * @example `nsPerCall((i) => compileSave(schema, inputs[i % inputs.length]), 100000)`
 */
export function nsPerCall(fn: (i: number) => unknown, iterations: number, rounds = 5): number {
  const warm = Math.max(1, Math.floor(iterations / 5));
  for (let i = 0; i < warm; i++) keep(fn(i));
  const perRound: number[] = [];
  for (let r = 0; r < rounds; r++) {
    collectGarbage();
    const t0 = performance.now();
    let last: unknown;
    for (let i = 0; i < iterations; i++) last = fn(i);
    const ms = performance.now() - t0;
    keep(last);
    perRound.push((ms * 1e6) / iterations);
  }
  return Math.round(median(perRound));
}
