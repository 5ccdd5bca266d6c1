import type { Command } from 'commander';
import { compileEntity } from '../metadata/compile-entity.js';
import { CliUsageError, ExitCode } from './cli-errors.js';
import type { CliContext, Run } from './cli-context.js';
import { count, formatTable } from './cli-output.js';
import {
  addPlanOption,
  addShardOptions,
  shardJson,
  shardText,
  taskShard,
  type Shard,
  type ShardFlags,
} from './cli-shard.js';
import { parseJsonArgument, positiveInteger, whereFromJson } from './cli-values.js';
import { entitiesOfShard } from './shard-scan.js';

/** `repropagate`: rewrite every denormalized copy of a source entity's rows, over a full scan of the source. */
export function addRepropagateCommands(program: Command, run: Run): void {
  addPlanOption(
    addShardOptions(
      program
        .command('repropagate')
        .description(
          'scan a source entity and propagate each of its rows to every entity that copies from it (@Denormalized): repairs copies after a bulk load or a failed propagation',
        ),
    ),
  )
    .argument('<entity>', 'the source entity: class name or table id')
    .option('--where <json>', 'only the sources in this key range, e.g. \'{"id":{"gte":"s1"}}\'', '{}')
    .option('--concurrency <n>', 'conditional row writes in flight per source (1 to 256, default 16)', positiveInteger)
    .option('--allow-full-scan', 'allow dependents whose copies only a full scan of their table can find')
    .action(
      run(
        async (
          ctx: CliContext,
          name: string,
          flags: { where: string; concurrency?: number; allowFullScan?: boolean } & ShardFlags,
        ) => {
          const started = performance.now();
          const { entity, schema } = await ctx.entity(name);
          const shard = await taskShard(flags, ctx.io);
          const entities = await ctx.entities();
          const dependents = entities.filter((e) => compileEntity(e).denormalized.some((d) => d.source === entity));
          if (dependents.length === 0)
            throw new CliUsageError(
              `no loaded entity copies from ${schema.name} (@Denormalized({ from: () => ${schema.name} }))`,
              'load the dependent entities too (-e), or name the source entity',
            );
          const where = whereFromJson(schema, parseJsonArgument(flags.where, '--where'));
          const mapper = ctx.connect(entities);
          const label = `repropagate ${schema.name}${shard.count === 1 ? '' : ` (task ${shardText(shard)})`}`;
          const bar = ctx.out.progress(label, 1, ' ranges');
          const totals = new Map<string, { scanned: number; updated: number }>();
          let sources = 0;
          try {
            const rows = entitiesOfShard(ctx, mapper, schema, where, shard, label, (done, total) => {
              bar.setTotal(total);
              bar.update(done);
            });
            for await (const batch of rows)
              for (const source of batch) {
                ctx.signal.throwIfAborted();
                const result = await mapper.propagate(source, {
                  ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
                  ...(flags.allowFullScan === true ? { allowFullScan: true } : {}),
                });
                sources++;
                for (const d of result.dependents) {
                  const t = totals.get(d.entity) ?? { scanned: 0, updated: 0 };
                  t.scanned += d.scanned;
                  t.updated += d.updated;
                  totals.set(d.entity, t);
                }
              }
          } finally {
            bar.stop();
          }
          const report: RepropagateReport = {
            entity: schema.name,
            table: ctx.tableOf(schema),
            shard: shardJson(shard),
            sources,
            scanned: [...totals.values()].reduce((n, t) => n + t.scanned, 0),
            updated: [...totals.values()].reduce((n, t) => n + t.updated, 0),
            dependents: [...totals].map(([e, t]) => ({ entity: e, ...t })),
            durationMs: Math.round(performance.now() - started),
          };
          ctx.out.result(report, renderReport);
          return ExitCode.Ok;
        },
      ),
    );
}

/** What `repropagate` reports: sources read, dependent rows read and rewritten, per dependent entity. */
interface RepropagateReport {
  readonly entity: string;
  readonly table: string;
  readonly shard: Shard;
  readonly sources: number;
  readonly scanned: number;
  readonly updated: number;
  readonly dependents: readonly { entity: string; scanned: number; updated: number }[];
  readonly durationMs: number;
}

function renderReport(r: RepropagateReport): string {
  const task = r.shard.count === 1 ? '' : ` (task ${shardText(r.shard)})`;
  const head = `${count(r.sources, 'source')} of ${r.entity} propagated${task}: ${r.updated} of ${r.scanned} dependent rows rewritten`;
  if (r.dependents.length === 0) return head;
  return `${head}\n${formatTable(
    ['dependent', 'scanned', 'updated'],
    r.dependents.map((d) => [d.entity, d.scanned, d.updated]),
  )}`;
}
