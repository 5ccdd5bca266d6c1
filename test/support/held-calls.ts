import type { BigtableDriver, CheckAndMutateRequest } from '../../src/model/driver.js';

/**
 * `inner`, on which the first CheckAndMutateRow of each row key in `hooks` (keys as latin1 text) waits
 * for that hook (another actor, run to its end) before it is sent: a forced interleaving on the real
 * driver, for race tests.
 */
export function holdingCheckAndMutate(
  inner: BigtableDriver,
  hooks: ReadonlyMap<string, () => Promise<unknown>>,
): BigtableDriver {
  const pending = new Map(hooks);
  return new Proxy(inner, {
    get(target, property) {
      if (property === 'checkAndMutate')
        return async (request: CheckAndMutateRequest, options?: object) => {
          const hook = pending.get(request.rowKey.toString('latin1'));
          if (hook !== undefined) {
            pending.delete(request.rowKey.toString('latin1'));
            await hook();
          }
          return target.checkAndMutate(request, options);
        };
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
