import { BigtableMapper } from '../repository/mapper.js';
import type { Constructor } from '../model/declarations.js';

const repositoryTokens = new WeakMap<Function, symbol>();
const namesInUse = new Map<string, number>();

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
 * described `<Name>Repository`; a second class with the same name gets
 * `<Name>Repository#2`, so neither tokens nor Nest's module keys collide.
 *
 * @example
 * ```ts
 * const readings = app.get<Repository<Reading>>(getRepositoryToken(Reading));
 * ```
 */
export function getRepositoryToken(entity: Constructor): symbol {
  let token = repositoryTokens.get(entity);
  if (token === undefined) {
    const name = `${entity.name || 'AnonymousEntity'}Repository`;
    const count = (namesInUse.get(name) ?? 0) + 1;
    namesInUse.set(name, count);
    token = Symbol(count === 1 ? name : `${name}#${count}`);
    repositoryTokens.set(entity, token);
  }
  return token;
}
