import { ValidationError } from '../errors/errors.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import type { PropagateOptions, PropagationProgress } from './propagate.js';

/**
 * Result of `mapper.propagate(source)`: totals and one entry per dependent entity.
 *
 * @example
 * ```ts
 * const { updated, dependents } = await mapper.propagate(sensor); // dependents: [{ entity: 'Reading', scanned, updated }]
 * ```
 */
export interface MapperPropagationResult extends PropagationProgress {
  /** Progress per dependent entity, in the order they were propagated. */
  readonly dependents: readonly ({
    /** Name of the dependent entity class. */
    readonly entity: string;
  } & PropagationProgress)[];
}

/**
 * Propagates `source` to every registered entity holding copies of its class,
 * one entity after the other; progress counts add up over the entities.
 * Throws `ValidationError` for a source that is not an entity instance.
 * @internal
 * @example
 * ```ts
 * await propagateToDependents([...schemas], sensor, (s) => mapper.getRepository(s.target), {});
 * ```
 */
export async function propagateToDependents(
  schemas: readonly EntitySchema[],
  source: object,
  repositoryOf: (schema: EntitySchema) => {
    propagate(source: object, options?: PropagateOptions): Promise<PropagationProgress>;
  },
  options: PropagateOptions = {},
): Promise<MapperPropagationResult> {
  if (source === null || typeof source !== 'object' || source.constructor === Object) {
    throw new ValidationError(
      'mapper.propagate() needs an instance of the source entity, so it can find the entities that copy from it. Fix: pass e.g. Object.assign(new Sensor(), { id, location }), or call repo.propagate() on one dependent',
      {},
    );
  }
  const dependents = schemas.filter((s) => s.denormalized.some((d) => source instanceof d.source));
  const results: ({ entity: string } & PropagationProgress)[] = [];
  const done = { scanned: 0, updated: 0 };
  for (const schema of dependents) {
    const onProgress =
      options.onProgress === undefined
        ? undefined
        : (p: PropagationProgress) =>
            options.onProgress?.({ scanned: done.scanned + p.scanned, updated: done.updated + p.updated });
    const result = await repositoryOf(schema).propagate(source, { ...options, onProgress });
    done.scanned += result.scanned;
    done.updated += result.updated;
    results.push({ entity: schema.name, ...result });
  }
  return { ...done, dependents: results };
}
