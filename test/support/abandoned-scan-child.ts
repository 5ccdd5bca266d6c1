import { pathToFileURL } from 'node:url';
import { BigtableMapper, Column, Entity, Family, KeyPart, Salt } from '../../src/index.js';

/**
 * The entity of the abandoned-scan test, on `table`: 8 salt buckets, so an
 * ordered scan opens 8 reads at once.
 *
 * @example
 * ```ts
 * const Row = abandonedScanEntity(uniqueTableId('abandon'));
 * ```
 */
export function abandonedScanEntity(table: string) {
  @Entity({ table })
  @Salt({ buckets: 8 })
  @Family('e')
  class AbandonedScanRow {
    @KeyPart(0, { type: 'string' }) id!: string;
    @Column({ family: 'e', type: 'string' }) payload?: string;
  }
  return AbandonedScanRow;
}

/**
 * Child process of the abandoned-scan test: opens a mapper on the emulator at
 * `host`, starts an ordered salted scan of `table`, reads one entity, leaves
 * the iterator open, closes the mapper and prints `{"row":true}`. The event
 * loop must then drain by itself: nothing may keep the process alive.
 *
 * @example
 * ```ts
 * spawn(process.execPath, ['--import', 'tsx', 'test/support/abandoned-scan-child.ts', host, instance, table]);
 * ```
 */
async function main(host: string, instance: string, table: string): Promise<void> {
  const Row = abandonedScanEntity(table);
  const mapper = new BigtableMapper({ emulatorHost: host, instance, entities: [Row] });
  const iterator = mapper.getRepository(Row).iterate({ order: 'key' })[Symbol.asyncIterator]();
  const first = await iterator.next();
  await mapper.close();
  process.stdout.write(`${JSON.stringify({ row: first.done === false })}\n`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [host, instance, table] = process.argv.slice(2) as [string, string, string];
  await main(host, instance, table);
}
