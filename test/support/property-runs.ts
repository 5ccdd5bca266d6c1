/**
 * How many cases a property test runs, from one environment variable,
 * `PROPERTY_RUNS`:
 *
 * - unset (`npm test`): a tenth of the test's full count, at least 100
 *   (fast-check's default) and never more than the full count;
 * - `full` (`npm run test:soak`, which runs every property test at its full
 *   count on every CI run): the count written in the test;
 * - a positive integer: exactly that many, for a deeper local run
 *   (`PROPERTY_RUNS=20000 npx vitest run test/unit/codec`).
 *
 * The soak tier finds the property tests to run again at full count by this
 * function's name (see `scripts/vitest.soak.config.ts`), so a property test
 * whose count is worth raising calls it.
 *
 * @example
 * ```ts
 * fc.assert(fc.property(fc.string(), (s) => expect(decode(encode(s))).toBe(s)), { numRuns: propertyRuns(3000) });
 * ```
 */
export function propertyRuns(full: number): number {
  const setting = process.env['PROPERTY_RUNS']?.trim() ?? '';
  if (setting === '') return quickPropertyRuns(full);
  if (setting === 'full') return full;
  if (/^[1-9]\d*$/.test(setting)) return Number(setting);
  throw new Error(`PROPERTY_RUNS must be unset, "full" or a positive integer, not ${JSON.stringify(setting)}`);
}

/**
 * The count a property test with `full` cases runs in `npm test`: a tenth, at
 * least 100 and at most `full`.
 *
 * @example
 * ```ts
 * quickPropertyRuns(3000); // 300
 * ```
 */
export function quickPropertyRuns(full: number): number {
  return Math.min(full, Math.max(100, Math.round(full / 10)));
}
