import type { BigtableMapper } from '../../src/index.js';
import type { KeyRange } from '../../src/driver-api.js';

/**
 * Physical row keys as stored, in stored order, read keys-only through the
 * mapper's driver (bypassing the mapper's key decoding).
 *
 * @example
 * ```ts
 * const keys = await rawKeys(mapper, 'activity'); // ['-2-user42-web-1719187200000', ..., 'user42-web-1719180000000']
 * ```
 */
export async function rawKeys(mapper: BigtableMapper, table: string, range?: KeyRange): Promise<string[]> {
  const keys: string[] = [];
  const filter = { kind: 'chain', filters: [{ kind: 'cellsPerColumn', limit: 1 }, { kind: 'stripValue' }] } as const;
  for await (const rows of mapper.driver.readRows({
    table,
    filter,
    ...(range === undefined ? {} : { ranges: [range] }),
  }))
    for (const row of rows) keys.push(row.key.toString('utf8'));
  return keys;
}
