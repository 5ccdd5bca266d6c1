/**
 * A seeded pseudo-random number generator: `next()` returns a float in
 * [0, 1). sfc32 on 32-bit integer arithmetic only, so a seed gives the same
 * sequence on every platform and Node version.
 * @internal
 */
export interface Random {
  next(): number;
}

/** @internal */
export function seededRandom(seed: number, stream = 0): Random {
  // splitmix32 spreads the (seed, stream) pair over the four words of state.
  let s = (Math.trunc(seed) ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
  const mix = (): number => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = mix();
  let b = mix();
  let c = mix();
  let d = mix();
  const next = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return { next };
}

/**
 * Draws ranks 1..n with probability proportional to `1 / rank^exponent`, by
 * binary search in the cumulative distribution (n floats, built once).
 * @internal
 */
export function zipfSampler(n: number, exponent: number): (random: Random) => number {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let rank = 1; rank <= n; rank++) {
    total += 1 / Math.pow(rank, exponent);
    cdf[rank - 1] = total;
  }
  return (random) => {
    const target = random.next() * total;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((cdf[mid] as number) <= target) low = mid + 1;
      else high = mid;
    }
    return low + 1;
  };
}
