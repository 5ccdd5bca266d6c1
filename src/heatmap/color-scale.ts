/**
 * Key Visualizer's look: cold cells near black, hot cells bright. Stops of a
 * dark → purple → red → orange → pale-yellow ramp, interpolated in RGB.
 */
const STOPS: readonly (readonly [number, readonly [number, number, number]])[] = [
  [0, [0, 0, 0]],
  [0.2, [28, 12, 72]],
  [0.45, [128, 24, 110]],
  [0.7, [226, 70, 50]],
  [0.88, [250, 168, 40]],
  [1, [255, 250, 190]],
];

/** Colour levels: cells are drawn in one of this many colours, so runs of equal colour merge into one rectangle. */
export const LEVELS = 64;

/**
 * The colour level (0..LEVELS-1) of `value` on a scale up to `max`. `log`
 * (the default, like Key Visualizer) shows hot spots and the faint background
 * together; `linear` shows only the hot spots.
 * @internal
 */
export function levelOf(value: number, max: number, scale: 'log' | 'linear'): number {
  if (value <= 0 || max <= 0) return 0;
  return Math.min(LEVELS - 1, Math.max(1, Math.round(fractionOf(value, max, scale) * (LEVELS - 1))));
}

/**
 * Where `value` sits on a scale from 0 to `max`, from 0 to 1 (values over `max` count as `max`).
 * @internal
 */
export function fractionOf(value: number, max: number, scale: 'log' | 'linear'): number {
  if (value <= 0 || max <= 0) return 0;
  return Math.min(1, scale === 'log' ? Math.log1p(value) / Math.log1p(max) : value / max);
}

/** The `#rrggbb` colour of a level. @internal */
export function colorOf(level: number): string {
  const x = Math.min(1, Math.max(0, level / (LEVELS - 1)));
  let i = 1;
  while (i < STOPS.length - 1 && (STOPS[i] as (typeof STOPS)[number])[0] < x) i++;
  const [x0, c0] = STOPS[i - 1] as (typeof STOPS)[number];
  const [x1, c1] = STOPS[i] as (typeof STOPS)[number];
  const f = x1 === x0 ? 0 : (x - x0) / (x1 - x0);
  return `#${c0
    .map((c, k) =>
      Math.round(c + ((c1[k] as number) - c) * f)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}
