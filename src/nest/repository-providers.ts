import type { Provider } from '@nestjs/common';
import type { Constructor } from '../model/declarations.js';
import type { BigtableMapper } from '../repository/mapper.js';
import { getMapperToken, getRepositoryToken } from './tokens.js';

/**
 * One provider per entity: its `Repository`, taken from the module's mapper
 * (which registers the entity, so `sync: true` covers it).
 * @internal
 */
export function createRepositoryProviders(entities: readonly Constructor[]): Provider[] {
  return entities.map((entity) => ({
    provide: getRepositoryToken(entity),
    useFactory: (mapper: BigtableMapper) => mapper.getRepository(entity as Constructor<object>),
    inject: [getMapperToken()],
  }));
}
