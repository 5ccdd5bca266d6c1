import type { EntitySchema } from '../metadata/entity-schema.js';
import { CopyFiller } from './fill-copies.js';
import { fillStream } from './fill-stream.js';
import type { SourceResolver } from './fill-copies.js';

/**
 * The entity a single save writes: itself when it has no `undefined`
 * `@Denormalized` copy, else a copy with them filled from their sources
 * (one batched read per source class). Throws `ValidationError` when a
 * source row is missing (unless the copy says `onMissingSource: 'skip'`).
 *
 * @internal
 */
export async function withCopies<T>(schema: EntitySchema<T>, entity: T, sources: SourceResolver): Promise<T> {
  if (schema.denormalized.length === 0) return entity;
  const [outcome] = await new CopyFiller(schema, sources).fill([entity]);
  if (outcome === undefined) return entity;
  if (!outcome.ok) throw outcome.error;
  return outcome.entity;
}

/**
 * Bulk-save input with copies filled per chunk (see `fillStream`); the input
 * itself when the entity has no `@Denormalized` columns.
 *
 * @internal
 */
export function bulkWithCopies<T>(
  schema: EntitySchema<T>,
  input: Iterable<T> | AsyncIterable<T>,
  sources: SourceResolver,
): { entities: Iterable<T> | AsyncIterable<T>; take(entity: T): T } {
  if (schema.denormalized.length === 0) return { entities: input, take: (entity) => entity };
  return fillStream(input, new CopyFiller(schema, sources));
}
