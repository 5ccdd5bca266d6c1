import { preview } from '../errors/bigtable-mapper-error.js';
import { ValidationError } from '../errors/errors.js';

/** Most edits between a mistyped option and the name it suggests. */
const MAX_EDITS = 2;

/**
 * Throws a `ValidationError` for the first key of `options` that is not in
 * `accepted`, suggesting the closest accepted name. Only the object's own
 * enumerable keys are read (string and symbol, as a spread copies them), and
 * never their values, so getters, inherited properties and `__proto__` keys
 * from `JSON.parse` are safe. Anything but an object is left to the caller's
 * own checks.
 * @internal
 */
export function checkOptionNames(operation: string, options: unknown, accepted: readonly string[]): void {
  if (options === null || typeof options !== 'object') return;
  for (const key of Reflect.ownKeys(options)) {
    if (typeof key === 'string' && accepted.includes(key)) continue;
    if (!Object.prototype.propertyIsEnumerable.call(options, key)) continue;
    const name = typeof key === 'string' ? key : String(key);
    const suggestion = typeof key === 'string' ? closestName(key, accepted) : undefined;
    const hint = suggestion === undefined ? '' : ` Did you mean "${suggestion}"?`;
    const fix = suggestion === undefined ? 'remove it' : `rename it to "${suggestion}"`;
    throw new ValidationError(
      `${operation}: unknown option ${typeof key === 'string' ? preview(key) : name}.${hint} Fix: ${fix} (options: ${accepted.join(', ')})`,
      { operation, option: name.slice(0, 80), suggestion },
    );
  }
}

/**
 * The name of `candidates` closest to `name` (case-insensitive optimal string
 * alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbours), when it is at most two edits away (one for names of up to
 * three characters); the first listed wins a tie.
 * @internal
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const limit = name.length <= 3 ? 1 : MAX_EDITS;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase(), bestDistance - 1);
    if (distance < bestDistance && distance < name.length) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance, or `max + 1` once it must exceed `max` (so long names cost nothing). */
function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, (before[j - 2] as number) + 1);
      current.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}
