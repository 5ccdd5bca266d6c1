import type { GcRule } from '../model/gc-rule.js';

/**
 * Whether a cell survives a GC rule, given its position among its column's
 * versions (0 = newest) and its age. Bigtable collects garbage asynchronously,
 * so reads apply the rule themselves and never return collectable cells.
 * @internal
 */
export function survivesGc(
  rule: GcRule | undefined,
  index: number,
  timestampMicros: number,
  nowMicros: number,
): boolean {
  if (rule === undefined) return true;
  switch (rule.kind) {
    case 'maxVersions':
      return index < rule.count;
    case 'maxAge':
      return timestampMicros >= nowMicros - rule.seconds * 1_000_000;
    case 'union':
      for (const r of rule.rules) if (!survivesGc(r, index, timestampMicros, nowMicros)) return false;
      return true;
    case 'intersection':
      for (const r of rule.rules) if (survivesGc(r, index, timestampMicros, nowMicros)) return true;
      return false;
  }
}

/**
 * The part of a GC rule a server-side filter can apply exactly: a version cap
 * and an oldest timestamp (both only when the rule guarantees deletion).
 * @internal
 */
export function gcFilterBounds(
  rule: GcRule | undefined,
  nowMicros: number,
): { maxVersions?: number; startMicros?: number } {
  if (rule === undefined || rule.kind === 'intersection') return {};
  if (rule.kind === 'maxVersions') return { maxVersions: rule.count };
  if (rule.kind === 'maxAge') return { startMicros: floorToMillis(nowMicros - rule.seconds * 1_000_000) };
  const bounds: { maxVersions?: number; startMicros?: number } = {};
  for (const r of rule.rules) Object.assign(bounds, gcFilterBounds(r, nowMicros));
  return bounds;
}

function floorToMillis(micros: number): number {
  return Math.floor(micros / 1000) * 1000;
}
