import { decodeRowKey } from '../key/physical-key.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import type { CallOptions, RowData } from '../model/driver.js';
import type { BigtableMapper } from '../repository/mapper.js';
import { planScan } from '../scan/plan-scan.js';
import type { CliContext } from './cli-context.js';
import { deadlineSignal } from '../util/operation-signal.js';
import { sourcesOfShard, type TaskShard } from './cli-shard.js';

/** A row's stored size as Bigtable counts it: key, then per cell family, qualifier, timestamp and value. */
export function rowBytes(row: RowData): number {
  let bytes = row.key.length;
  for (const [family, columns] of Object.entries(row.cells)) {
    for (const [qualifier, cells] of Object.entries(columns)) {
      bytes += cells.length * (Buffer.byteLength(family) + Buffer.byteLength(qualifier) + 8);
      for (const cell of cells) bytes += cell.value.length;
    }
  }
  return bytes;
}

/**
 * Reads an entity's table range by range (one per salt bucket, as a scan
 * plans them), with a progress bar over the ranges; `perRange` reads at most
 * that many rows of each range (a sample spread over every bucket); `shard` reads only that task's
 * ranges (`sourcesOfShard`). The reads honour Ctrl-C, `--timeout-ms` and the mapper's scan idle timeout.
 */
export async function readEntityRows(
  ctx: CliContext,
  mapper: BigtableMapper,
  schema: EntitySchema,
  onRow: (row: RowData) => void,
  options: { perRange?: number; label: string; valuesNeeded: boolean; shard?: TaskShard },
): Promise<number> {
  const plan = options.shard?.plan;
  const planned = planScan(schema, plan === undefined ? {} : { shard: plan }).sources;
  const sources = options.shard === undefined || plan !== undefined ? planned : sourcesOfShard(planned, options.shard);
  const call = readCall(ctx, mapper, options.label);
  const progress = ctx.out.progress(options.label, sources.length, ' ranges');
  let rows = 0;
  try {
    for (const [index, source] of sources.entries()) {
      const request = {
        table: schema.table,
        ranges: [source.range],
        ...(options.perRange === undefined ? {} : { limit: options.perRange }),
        ...(options.valuesNeeded ? {} : { filter: { kind: 'stripValue' as const } }),
      };
      for await (const batch of mapper.driver.readRows(request, call))
        for (const row of batch) {
          onRow(row);
          rows++;
        }
      progress.update(index + 1);
    }
  } finally {
    progress.stop();
  }
  return rows;
}

/** The options of a command's raw reads: Ctrl-C and `--timeout-ms` (one deadline for the whole command), the scan idle timeout, `--app-profile`. */
export function readCall(ctx: CliContext, mapper: BigtableMapper, label: string): CallOptions {
  return {
    signal:
      ctx.flags.timeoutMs === undefined
        ? ctx.signal
        : deadlineSignal(ctx.flags.timeoutMs, { signal: ctx.signal, operation: label }),
    idleTimeoutMs: mapper.timeouts.scan.idleMs,
    ...(ctx.appProfileId === undefined ? {} : { appProfileId: ctx.appProfileId }),
  };
}

/** The logical key values of a row of the entity, or `undefined` for a row that is not one (another entity's key). */
export function keyValuesOf(schema: EntitySchema, row: RowData): Record<string, unknown> | undefined {
  try {
    return decodeRowKey(schema, row.key);
  } catch {
    return undefined;
  }
}
