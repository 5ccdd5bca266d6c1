import { ValidationError } from '../errors/validation-error.js';
import type { KeyRange } from '../model/driver.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { decodeCursor } from './cursor.js';
import type { ScanSource } from './scan-plan.js';

/**
 * Moves every source of a plan past the position a cursor records, dropping
 * sources that are finished or left empty. Rejects a cursor of another query.
 * @internal
 */
export function applyCursor(
  schema: EntitySchema,
  sources: readonly ScanSource[],
  cursor: string,
  scope: string,
  order: 'key' | 'none',
): ScanSource[] {
  const state = decodeCursor(cursor);
  if (state.scope !== scope || state.kind !== (order === 'key' ? 'ordered' : 'unordered')) {
    throw new ValidationError(
      `${schema.name}: this cursor belongs to another query. Fix: resume with the same where, select, versions and order that produced the cursor`,
      { entity: schema.name },
    );
  }
  if (state.kind === 'ordered') {
    return sources.flatMap((s) => startAfter(s, Buffer.concat([Buffer.from(s.segment, 'utf8'), state.lastKey])));
  }
  if (state.sources.length !== sources.length) {
    throw new ValidationError(
      `${schema.name}: this cursor was made for ${state.sources.length} key ranges but the query has ${sources.length}. Fix: resume with the same query`,
      { entity: schema.name },
    );
  }
  return sources.flatMap((s) => {
    const position = state.sources[s.id];
    if (position === undefined || position.finished) return [];
    return position.lastKey === undefined ? [s] : startAfter(s, position.lastKey);
  });
}

function startAfter(source: ScanSource, key: Buffer): ScanSource[] {
  const { start, end } = source.range;
  if (Buffer.compare(key, start.key) < 0) return [source];
  if (end !== undefined && Buffer.compare(key, end.key) >= 0) return [];
  const range: KeyRange = { start: { key, inclusive: false }, end };
  return [{ ...source, range }];
}
