import { Inject } from '@nestjs/common';
import type { Constructor } from '../model/declarations.js';
import { getBulkWriterToken, getMapperToken, getRepositoryToken } from './tokens.js';

/**
 * Injects the `Repository` of `entity` (register it with
 * `BigtableModule.forFeature([entity])`). Needs no `emitDecoratorMetadata`,
 * but legacy decorators (`experimentalDecorators`), as NestJS does: standard
 * decorators have no parameter decorators.
 *
 * @example
 * ```ts
 * @Injectable()
 * class ReadingsService {
 *   constructor(@InjectRepository(Reading) private readonly readings: Repository<Reading>) {}
 * }
 * ```
 */
export function InjectRepository(entity: Constructor): PropertyDecorator & ParameterDecorator {
  return Inject(getRepositoryToken(entity));
}

/**
 * Injects the module's `BigtableMapper`. Needs no `emitDecoratorMetadata`, but
 * legacy decorators (`experimentalDecorators`), as NestJS does.
 *
 * @example
 * ```ts
 * @Injectable()
 * class SchemaService {
 *   constructor(@InjectMapper() private readonly mapper: BigtableMapper) {}
 * }
 * ```
 */
export function InjectMapper(): PropertyDecorator & ParameterDecorator {
  return Inject(getMapperToken());
}

/**
 * Injects the `BulkWriter` of `entity` (provide it with
 * `BigtableModule.forFeature([entity], { bulkWriters: {} })`): one writer per
 * entity for the application's lifetime, flushed and closed on shutdown.
 *
 * @example
 * ```ts
 * @Injectable()
 * class IngestService {
 *   constructor(@InjectBulkWriter(Reading) private readonly writer: BulkWriter<Reading>) {}
 *   async onMessage(reading: Reading): Promise<void> { await this.writer.add(reading); }
 * }
 * ```
 */
export function InjectBulkWriter(entity: Constructor): PropertyDecorator & ParameterDecorator {
  return Inject(getBulkWriterToken(entity));
}
