import type { Evenness } from '../key/salt.js';

/**
 * {@link Evenness} as JSON can carry it: `ratio` is `null` where `max / min`
 * is infinite (a bucket got nothing), since `JSON.stringify(Infinity)` would
 * silently write `null` anyway.
 *
 * @example
 * ```ts
 * const s: Spread = { min: 0, max: 12, ratio: null };
 * ```
 */
export interface Spread {
  /** The emptiest bucket's count. */
  readonly min: number;
  /** The fullest bucket's count. */
  readonly max: number;
  /** `max / min`, or `null` when `min` is 0. */
  readonly ratio: number | null;
}

/**
 * The "good enough" bound on `max / min` rows per salt bucket: anything under
 * 1.5 is usually good enough.
 * @internal
 */
export const GOOD_RATIO = 1.5;

/** {@link Evenness} → {@link Spread}. @internal */
export function toSpread(e: Evenness): Spread {
  return { min: e.min, max: e.max, ratio: Number.isFinite(e.ratio) ? e.ratio : null };
}
