import { BigtableMapper } from '../repository/mapper.js';
import type { Constructor } from '../model/declarations.js';
import { MetadataKeys } from '../metadata/keys.js';
import { getOwnValue } from '../metadata/store.js';

const repositoryTokens = new WeakMap<Function, symbol>();

/**
 * Injection token of the module's options (the resolved `forRoot` /
 * `forRootAsync` options).
 * @internal
 */
export const BIGTABLE_MODULE_OPTIONS: unique symbol = Symbol('bigtable-mapper:module-options');

/**
 * The injection token of the {@link BigtableMapper} that `BigtableModule.forRoot`
 * provides: the `BigtableMapper` class itself, so injecting by class works too.
 *
 * @example
 * ```ts
 * const mapper = app.get<BigtableMapper>(getMapperToken());
 * ```
 */
export function getMapperToken(): typeof BigtableMapper {
  return BigtableMapper;
}

/**
 * The injection token of an entity's `Repository`, as provided by
 * `BigtableModule.forFeature([Entity])`: one unique symbol per entity class,
 * described after the entity and its table, `<Name>Repository(<table>)`, so
 * the same class always gets the same description, whatever else was
 * registered first, and two classes of one name on different tables are told
 * apart in Nest's errors and module keys.
 *
 * @example
 * ```ts
 * const readings = app.get<Repository<Reading>>(getRepositoryToken(Reading));
 * String(getRepositoryToken(Reading)); // 'Symbol(ReadingRepository(readings))'
 * ```
 */
export function getRepositoryToken(entity: Constructor): symbol {
  let token = repositoryTokens.get(entity);
  if (token === undefined) {
    const table = getOwnValue<{ table?: unknown }>(MetadataKeys.entity, entity)?.table;
    const name = `${entity.name || 'AnonymousEntity'}Repository`;
    token = Symbol(typeof table === 'string' ? `${name}(${table})` : name);
    repositoryTokens.set(entity, token);
  }
  return token;
}

const bulkWriterTokens = new WeakMap<Function, symbol>();

/**
 * The injection token of an entity's `BulkWriter`, as provided by
 * `BigtableModule.forFeature([Entity], { bulkWriters: {...} })`:
 * `<Name>BulkWriter(<table>)`.
 *
 * @example
 * ```ts
 * const writer = app.get<BulkWriter<Reading>>(getBulkWriterToken(Reading));
 * ```
 */
export function getBulkWriterToken(entity: Constructor): symbol {
  let token = bulkWriterTokens.get(entity);
  if (token === undefined) {
    const table = getOwnValue<{ table?: unknown }>(MetadataKeys.entity, entity)?.table;
    const name = `${entity.name || 'AnonymousEntity'}BulkWriter`;
    token = Symbol(typeof table === 'string' ? `${name}(${table})` : name);
    bulkWriterTokens.set(entity, token);
  }
  return token;
}
