import type { EntitySchema } from '../metadata/entity-schema.js';
import { hydrate } from '../read/hydrate.js';
import type { BigtableMapper } from '../repository/mapper.js';
import { executeScan } from '../scan/execute-scan.js';
import { planScanRead } from '../scan/plan-scan.js';
import type { ScanPlan } from '../scan/scan-plan.js';
import type { CliContext } from './cli-context.js';
import { CliUsageError } from './cli-errors.js';
import { sourcesOfShard, shardText, type TaskShard } from './cli-shard.js';
import { readCall } from './table-reader.js';

/**
 * The entities of one task's shard of a scan (`where` as `--where` gives it), decoded, in batches as
 * the driver delivers them (bounded read-ahead): the shard's ranges (its pieces of a `--plan` shard, else
 * its group of the scan's ranges) one after the other, each in key order. `onRange` hears each range read to its end, for a progress bar. While an entity is re-salted a
 * row can be in both layouts, which only one merged scan tells apart: the whole scan is then one range,
 * and a task of more than one is refused.
 */
export async function* entitiesOfShard(
  ctx: CliContext,
  mapper: BigtableMapper,
  schema: EntitySchema,
  where: Record<string, unknown>,
  shard: TaskShard,
  label: string,
  onRange: (done: number, total: number) => void,
): AsyncGenerator<object[]> {
  const now = Date.now() * 1000;
  const { plan, read } = planScanRead(
    schema,
    { where, order: 'key', ...(shard.plan === undefined ? {} : { shard: shard.plan }) },
    now,
  );
  const resalting = schema.key.salt?.previous !== undefined;
  if (resalting && shard.count > 1)
    throw new CliUsageError(
      `${schema.name} is being re-salted (@Salt previous): a row may be in both layouts, so its scan cannot be cut into tasks (--shard ${shardText(shard)})`,
      'run this command as one task, or finish the re-salt first (resalt, then remove previous)',
    );
  const parts: ScanPlan[] = resalting
    ? [plan]
    : (shard.plan === undefined ? sourcesOfShard(plan.sources, shard) : plan.sources).map((source) => ({
        ...plan,
        sources: [source],
      }));
  const call = readCall(ctx, mapper, label);
  for (const [index, part] of parts.entries()) {
    for await (const batch of executeScan(mapper.driver, schema, part, undefined, call))
      yield batch.map(({ row }) => hydrate(schema, row, read, now) as object);
    onRange(index + 1, parts.length);
  }
  if (parts.length === 0) onRange(0, 0);
}
