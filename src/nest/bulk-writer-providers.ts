import type { BeforeApplicationShutdown, Provider } from '@nestjs/common';
import type { Constructor } from '../model/declarations.js';
import type { OperationOptions } from '../operation/operation.js';
import type { Repository } from '../repository/repository.js';
import type { BulkWriteOptions, BulkWriter } from '../write/bulk-writer.js';
import { getBulkWriterToken, getRepositoryToken } from './tokens.js';

/**
 * Closes a feature module's bulk writers when the application shuts down:
 * in `beforeApplicationShutdown`, so each writer has flushed and settled
 * every outcome before the mapper closes in the core module's
 * `onApplicationShutdown`.
 * @internal
 */
class BulkWritersShutdown implements BeforeApplicationShutdown {
  readonly #writers: readonly BulkWriter<unknown>[];

  constructor(writers: readonly BulkWriter<unknown>[]) {
    this.#writers = writers;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.#writers.map((writer) => writer.close()));
  }
}

/**
 * One provider per entity: a `BulkWriter` made from its repository with
 * `options`, and one provider that closes them all on shutdown.
 * @internal
 */
export function createBulkWriterProviders(
  entities: readonly Constructor[],
  options: BulkWriteOptions & OperationOptions,
): Provider[] {
  const writers: Provider[] = entities.map((entity) => ({
    provide: getBulkWriterToken(entity),
    useFactory: (repository: Repository<object>) => repository.bulkWriter(options),
    inject: [getRepositoryToken(entity)],
  }));
  const shutdown: Provider = {
    provide: Symbol(`BulkWritersShutdown(${entities.map((entity) => entity.name).join(',')})`),
    useFactory: (...made: BulkWriter<unknown>[]) => new BulkWritersShutdown(made),
    inject: entities.map((entity) => getBulkWriterToken(entity)),
  };
  return [...writers, shutdown];
}
