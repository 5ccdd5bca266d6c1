/**
 * `bigtable-mapper/nest`: NestJS module, injection decorators, tokens,
 * the exception filter that answers the library's errors over HTTP, and the
 * OpenAPI schema of an entity's JSON form for `@nestjs/swagger`.
 * Needs the optional peers `@nestjs/common` and `@nestjs/core`.
 *
 * @example
 * ```ts
 * import { BigtableModule, InjectRepository } from 'bigtable-mapper/nest';
 * ```
 *
 * @module bigtable-mapper/nest
 */
export { BigtableModule } from './bigtable-module.js';
export type { BigtableModuleOptions, BigtableModuleAsyncOptions } from './module-options.js';
export { InjectRepository, InjectMapper, InjectBulkWriter } from './inject.decorator.js';
export { getRepositoryToken, getMapperToken, getBulkWriterToken } from './tokens.js';
export { BigtableMapperExceptionFilter } from './exception-filter.js';
export { toOpenApiSchema, type OpenApiSchemaObject, type OpenApiSchemaOptions } from './openapi-schema.js';
