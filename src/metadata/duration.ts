import type { Duration } from '../model/declarations.js';
import { preview } from '../errors/bigtable-mapper-error.js';
import { MetadataError } from '../errors/errors.js';

const UNIT_SECONDS = { d: 86_400, h: 3_600, m: 60, s: 1 } as const;

/**
 * Largest max age a protobuf `Duration` can carry (10,000 years).
 */
const MAX_DURATION_SECONDS = 315_576_000_000;

/**
 * Parses a `@Family` GC `maxAge` into whole seconds. Accepts `'30d'`, `'12h'`,
 * `'15m'`, `'90s'` or a positive integer number of seconds.
 * @internal
 */
export function parseDuration(entity: string, family: string, value: Duration): number {
  const seconds = toSeconds(value);
  if (seconds === undefined || seconds <= 0 || seconds > MAX_DURATION_SECONDS) {
    throw new MetadataError(
      entity,
      undefined,
      `@Family('${family}') gc.maxAge ${preview(value)} is not a valid duration`,
      `use a positive whole number of seconds or a string such as '30d', '12h', '15m' or '90s' (at most ${MAX_DURATION_SECONDS} seconds)`,
    );
  }
  return seconds;
}

function toSeconds(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^([1-9][0-9]{0,11})([dhms])$/.exec(value);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}

/**
 * Formats seconds with the largest unit that divides them exactly.
 * @internal
 */
export function formatDuration(seconds: number): string {
  if (Number.isInteger(seconds) && seconds > 0) {
    for (const unit of ['d', 'h', 'm'] as const) {
      if (seconds % UNIT_SECONDS[unit] === 0) return `${seconds / UNIT_SECONDS[unit]}${unit}`;
    }
  }
  return `${seconds}s`;
}
