import type { Constructor } from '../model/declarations.js';

/**
 * What copying needs from a source entity's repository: a batched read of
 * the selected columns. `Repository.findMany` is one (tests can spy on it).
 *
 * @example
 * ```ts
 * const reader: SourceReader = mapper.getRepository(Sensor);
 * const [sensor] = await reader.findMany([{ id: 's1' }], { select: ['location'] });
 * ```
 */
export interface SourceReader {
  /** Reads the rows of these source keys, only the `select`ed columns; resolves in input order, `undefined` for a missing row. */
  findMany(
    keys: readonly object[],
    options?: { readonly select?: readonly string[] },
  ): Promise<readonly (object | undefined)[]>;
}

/**
 * Finds the reader of a source entity class (the mapper hands out its
 * repositories, so copies are read through `mapper.getRepository(Sensor)`).
 *
 * @example
 * ```ts
 * const resolve: SourceResolver = (source) => mapper.getRepository(source);
 * ```
 */
export type SourceResolver = (source: Constructor) => SourceReader;
