import type { KeyRangeCondition } from '../key/key-ranges.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import type { ScanSource } from './scan-plan.js';

/**
 * With a forward-only salt (`since`), drops the layout that cannot hold
 * matching rows: the salted buckets when the query only reaches times before
 * the cutoff, the unsalted range when it only reaches times at or after it.
 * @internal
 */
export function pruneLayouts(
  schema: EntitySchema,
  sources: ScanSource[],
  fixed: Readonly<Record<string, unknown>>,
  range: KeyRangeCondition | undefined,
): ScanSource[] {
  const since = schema.key.salt?.since;
  if (since === undefined) return sources;
  const from = since.from.getTime();
  const fixedTime = fixed[since.component];
  let keep: 'salted' | 'unsalted' | undefined;
  if (fixedTime instanceof Date) keep = fixedTime.getTime() >= from ? 'salted' : 'unsalted';
  else if (range?.property === since.component) keep = layoutOfRange(range, from);
  return keep === undefined ? sources : sources.filter((s) => s.layout === keep);
}

function layoutOfRange(range: KeyRangeCondition, from: number): 'salted' | 'unsalted' | undefined {
  const time = (v: unknown) => (v instanceof Date ? v.getTime() : undefined);
  const lt = time(range.lt);
  const lte = time(range.lte);
  if ((lt !== undefined && lt <= from) || (lte !== undefined && lte < from)) return 'unsalted';
  const gte = time(range.gte);
  const gt = time(range.gt);
  if ((gte !== undefined && gte >= from) || (gt !== undefined && gt >= from - 1)) return 'salted';
  return undefined;
}
