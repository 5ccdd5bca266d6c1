import { BigtableMapperError } from './bigtable-mapper-error.js';
import { ErrorCode } from './error-codes.js';

/**
 * `findOneOrFail` found no row for the key.
 *
 * @example
 * ```ts
 * try { await repo.findOneOrFail({ id: 'nope' }); }
 * catch (err) { if (err instanceof EntityNotFoundError) reply.status(404); }
 * ```
 */
export class EntityNotFoundError extends BigtableMapperError {
  constructor(entity: string, rowKey: string) {
    super(ErrorCode.NotFound, `${entity}: no row with key ${JSON.stringify(rowKey)}`, { details: { entity, rowKey } });
  }
}
