import { Option, type Command } from 'commander';
import type { SchemaChange } from '../schema/schema-change.js';
import { printableBytes } from '../util/printable-bytes.js';
import { planScan } from '../scan/plan-scan.js';
import type { ScanPlan } from '../scan/scan-plan.js';
import { ExitCode } from './cli-errors.js';
import type { CliContext, Run } from './cli-context.js';
import { count, formatTable } from './cli-output.js';
import { parseJsonArgument, positiveInteger, whereFromJson } from './cli-values.js';

/** `sync` (the schema diff, applied or checked) and `plan` (the ranges a scan reads). */
export function addSchemaCommands(program: Command, run: Run): void {
  program
    .command('sync')
    .description('create missing tables and families and update GC rules to match the entities')
    .option('--dry-run', 'show the changes without applying them')
    .option('--check', 'exit 1 when the instance differs from the entities (applies nothing; for deploy pipelines)')
    .option('--allow-drop', 'also drop families that no entity declares (deletes their data)')
    .action(
      run(async (ctx: CliContext, flags: { dryRun?: boolean; check?: boolean; allowDrop?: boolean }) => {
        const entities = await ctx.entities();
        const mapper = ctx.connect(entities);
        const dryRun = flags.dryRun === true || flags.check === true;
        const result = await mapper.sync({ ...ctx.call, dryRun, allowDropFamilies: flags.allowDrop === true });
        const drift = result.changes.length > 0;
        ctx.out.result({ changes: result.changes, applied: result.applied, drift }, () =>
          renderChanges(result.changes, dryRun),
        );
        return flags.check === true && drift ? ExitCode.CheckFailed : ExitCode.Ok;
      }),
    );

  program
    .command('plan')
    .description('show the physical key ranges a scan would read (one per salt bucket), without reading')
    .argument('<entity>', 'entity class name or table id')
    .option('--where <json>', 'key conditions, e.g. \'{"userId":"u1","at":{"gte":"2026-01-01T00:00:00Z"}}\'', '{}')
    .option('--limit <n>', 'maximum rows', positiveInteger)
    .addOption(new Option('--order <order>', 'row order of the scan').choices(['key', 'key-desc', 'none']))
    .action(
      run(
        async (
          ctx: CliContext,
          name: string,
          flags: { where: string; limit?: number; order?: 'key' | 'key-desc' | 'none' },
        ) => {
          const { schema } = await ctx.entity(name);
          const where = whereFromJson(schema, parseJsonArgument(flags.where, '--where'));
          const plan = planScan(schema, {
            where,
            ...(flags.limit === undefined ? {} : { limit: flags.limit }),
            ...(flags.order === undefined ? {} : { order: flags.order }),
          });
          ctx.out.result(describePlan(plan, ctx.tableOf(schema)), renderPlan);
          return ExitCode.Ok;
        },
      ),
    );
}

interface PlanDescription {
  table: string;
  ranges: { bucket: string; layout: string; start: string; end: string }[];
  limit: number | undefined;
  order: string;
  keyCheck: ScanPlan['keyCheck'];
}

/** The plan as the command prints it, naming `table`, the table as read (with the table prefix). */
function describePlan(plan: ScanPlan, table: string): PlanDescription {
  return {
    table,
    ranges: plan.sources.map((s) => ({
      bucket: s.segment,
      layout: s.layout,
      start: `${s.range.start.inclusive ? '[' : '('}${printableBytes(s.range.start.key)}`,
      end:
        s.range.end === undefined
          ? '(end of table)'
          : `${printableBytes(s.range.end.key)}${s.range.end.inclusive ? ']' : ')'}`,
    })),
    limit: plan.limit,
    order: plan.order,
    keyCheck: plan.keyCheck,
  };
}

function renderPlan(p: PlanDescription): string {
  const head = `table ${p.table}: ${count(p.ranges.length, 'range')}, order ${p.order}${p.limit === undefined ? '' : `, limit ${p.limit}`}`;
  const table = formatTable(
    ['bucket', 'layout', 'start', 'end'],
    p.ranges.map((r) => [r.bucket === '' ? '-' : r.bucket, r.layout, r.start, r.end]),
  );
  const check = p.keyCheck === undefined ? '' : `\nrows are checked after reading: ${JSON.stringify(p.keyCheck)}`;
  return `${head}\n${table}${check}`;
}

function renderChanges(changes: readonly SchemaChange[], dryRun: boolean): string {
  if (changes.length === 0) return 'the instance matches the entities: nothing to change';
  const verb = dryRun ? 'would be made' : 'made';
  return `${count(changes.length, 'change')} ${verb}:\n${formatTable(
    ['change', 'table', 'what'],
    changes.map((c) => [c.kind, c.table, c.description]),
  )}`;
}
