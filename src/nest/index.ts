/**
 * `bigtable-mapper/nest`: NestJS module, injection decorators and tokens.
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
export { InjectRepository, InjectMapper } from './inject.decorator.js';
export { getRepositoryToken, getMapperToken } from './tokens.js';
