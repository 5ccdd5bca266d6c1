import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { bucketStudy, type BucketStudy } from '../lint/bucket-study.js';
import { CensusCounter, mergeCensuses, type Census } from '../lint/census.js';
import { lintEntities } from '../lint/lint-entity.js';
import type { LintFinding } from '../lint/lint-finding.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { CliUsageError, ExitCode } from './cli-errors.js';
import type { CliContext, Run } from './cli-context.js';
import { count, formatTable } from './cli-output.js';
import { keyValuesFromJson, positiveInteger, readTextFile } from './cli-values.js';
import {
  addPlanOption,
  addShardOptions,
  shardJson,
  shardText,
  taskShard,
  type Shard,
  type ShardFlags,
} from './cli-shard.js';
import { checkHeatmapFile, writeHeatmap } from './heatmap-file.js';
import { heatmapOfCensus } from './heatmap-sources.js';
import { keyValuesOf, readEntityRows, rowBytes } from './table-reader.js';

const MAX_SAMPLE = 1_000_000;

/** `lint`, `buckets` and `census`: the checks and measurements of a key design. */
export function addStudyCommands(program: Command, run: Run): void {
  program
    .command('lint')
    .description('check the entities against key-design rules (exit 1 on errors, or on warnings with --strict)')
    .argument('[entities...]', 'entity class names or table ids (default: every entity)')
    .option('--strict', 'warnings fail the check too')
    .option('--include-suppressed', 'also list findings the entities suppress, with their reasons')
    .action(
      run(async (ctx: CliContext, names: string[], flags: { strict?: boolean; includeSuppressed?: boolean }) => {
        const entities =
          names.length === 0
            ? await ctx.entities()
            : await Promise.all(names.map(async (n) => (await ctx.entity(n)).entity));
        const findings = lintEntities(entities, { includeSuppressed: flags.includeSuppressed === true });
        const live = findings.filter((f) => f.suppressed === undefined);
        const errors = live.filter((f) => f.severity === 'error').length;
        const warnings = live.filter((f) => f.severity === 'warning').length;
        ctx.out.result({ entities: entities.map((e) => e.name), errors, warnings, findings }, renderFindings);
        return errors > 0 || (flags.strict === true && warnings > 0) ? ExitCode.CheckFailed : ExitCode.Ok;
      }),
    );

  program
    .command('buckets')
    .description(
      'bucket-count study: how evenly hash-salted buckets would spread real keys at each bucket count (max/min rows per bucket under 1.5 is good)',
    )
    .argument('<entity>', 'entity class name or table id')
    .option('--keys <file>', 'key values: a JSON array, or one JSON object per line')
    .option(
      '--sample <n>',
      `read up to n rows' keys from the table, spread over its salt buckets (at most ${MAX_SAMPLE})`,
      positiveInteger,
    )
    .option('--counts <list>', 'bucket counts to try', list, [5, 10, 20, 50])
    .action(
      run(async (ctx: CliContext, name: string, flags: { keys?: string; sample?: number; counts: number[] }) => {
        const { entity, schema } = await ctx.entity(name);
        if ((flags.keys === undefined) === (flags.sample === undefined)) {
          throw new CliUsageError('buckets needs its keys', 'pass either --keys <file> or --sample <n>');
        }
        const declared = schema.key.salt?.buckets;
        const counts =
          declared === undefined || flags.counts.includes(declared) ? flags.counts : [...flags.counts, declared];
        const keys =
          flags.keys !== undefined
            ? await readKeysFile(schema, ctx.io.cwd, flags.keys)
            : await sampleKeys(ctx, entity, schema, flags.sample!);
        const study = bucketStudy(schema, keys, counts);
        ctx.out.result({ ...study, declaredBuckets: declared }, (s) => renderStudy(s, declared));
        const declaredRow = study.rows.find((r) => r.buckets === declared);
        return declaredRow?.verdict === 'uneven' ? ExitCode.CheckFailed : ExitCode.Ok;
      }),
    );

  const census = program
    .command('census')
    .description(
      'read the table and count rows and bytes per salt bucket and per key prefix, with the evenness ratio; `census merge` combines the reports of its tasks',
    );
  addPlanOption(addShardOptions(census))
    .argument('<entity>', 'entity class name or table id')
    .option('--prefix-components <n>', 'leading key components that make a prefix group', positiveInteger, 1)
    .option('--max-prefixes <n>', 'how many of the largest key prefixes to report', positiveInteger, 1000)
    .option('--heatmap <file>', 'also draw the census as a heatmap (.svg, .html or .png)')
    .action(
      run(
        async (
          ctx: CliContext,
          name: string,
          flags: { prefixComponents: number; maxPrefixes: number; heatmap?: string } & ShardFlags,
        ) => {
          const started = performance.now();
          const { entity, schema } = await ctx.entity(name);
          const shard = await taskShard(flags, ctx.io);
          if (flags.heatmap !== undefined) await checkHeatmapFile(flags.heatmap);
          const counter = new CensusCounter(schema, {
            prefixComponents: flags.prefixComponents,
            maxPrefixes: flags.maxPrefixes,
          });
          const mapper = ctx.connect([entity]);
          const table = ctx.tableOf(schema);
          await readEntityRows(ctx, mapper, schema, (row) => counter.add({ key: row.key, bytes: rowBytes(row) }), {
            label: `census of ${table}${shard.count === 1 ? '' : ` (task ${shardText(shard)})`}`,
            valuesNeeded: true,
            shard,
          });
          // The table as Bigtable names it (with the table prefix), so `heatmap` titles a saved census with it too.
          const census: CensusReport = {
            ...counter.result(),
            table,
            shard: shardJson(shard),
            prefixComponents: flags.prefixComponents,
            maxPrefixes: flags.maxPrefixes,
            durationMs: Math.round(performance.now() - started),
          };
          if (flags.heatmap !== undefined) {
            const file = await writeHeatmap(ctx, heatmapOfCensus(census), flags.heatmap, `Census of ${table}`);
            ctx.out.note(`heatmap written to ${file}`);
          }
          ctx.out.result(census, renderCensus);
          return ExitCode.Ok;
        },
      ),
    );

  census
    .command('merge')
    .description("combine the --json reports of a census job's tasks (one per shard) into the table's census")
    .argument('<files...>', "the tasks' --json reports")
    .action(
      run(async (ctx: CliContext, files: string[]) => {
        const reports = await Promise.all(files.map(async (f) => readCensusReport(ctx.io.cwd, f)));
        const merged = mergeCensusReports(reports);
        ctx.out.result(merged, renderCensus);
        return ExitCode.Ok;
      }),
    );
}

/** What one `census` task prints with `--json`: its census, the table, its shard and how it counted. */
interface CensusReport extends Census {
  readonly table: string;
  readonly shard: Shard;
  readonly prefixComponents: number;
  readonly maxPrefixes: number;
  readonly durationMs: number;
}

async function readCensusReport(cwd: string, file: string): Promise<CensusReport> {
  const text = await readTextFile(cwd, file, 'census report');
  let report: Partial<CensusReport>;
  try {
    report = JSON.parse(text) as Partial<CensusReport>;
  } catch (error) {
    throw new CliUsageError(
      `census report ${file} is not JSON (${(error as Error).message})`,
      "pass the files a census task's --json wrote",
    );
  }
  const shard = report.shard;
  if (
    typeof report.entity !== 'string' ||
    typeof report.table !== 'string' ||
    !Array.isArray(report.buckets) ||
    !Array.isArray(report.prefixes) ||
    typeof shard?.index !== 'number' ||
    typeof shard.count !== 'number' ||
    typeof report.maxPrefixes !== 'number'
  ) {
    throw new CliUsageError(
      `${file} is not a census task report (entity, table, shard, buckets, prefixes, maxPrefixes)`,
      'run census with --json and --shard (or the job environment) and pass what each task printed',
    );
  }
  return report as CensusReport;
}

/** The reports of every task of one job, checked to be exactly shards 0 to n-1 of one table and one counting. */
function mergeCensusReports(reports: readonly CensusReport[]): CensusReport {
  const first = reports[0] as CensusReport;
  const count = first.shard.count;
  for (const r of reports) {
    if (r.entity !== first.entity || r.table !== first.table)
      throw new CliUsageError(
        `census reports of ${first.entity} (table ${first.table}) and ${r.entity} (table ${r.table}) cannot be merged`,
        "merge the reports of one job's tasks",
      );
    if (r.shard.count !== count || r.prefixComponents !== first.prefixComponents || r.maxPrefixes !== first.maxPrefixes)
      throw new CliUsageError(
        `census reports of one table disagree on the task count, --prefix-components or --max-prefixes`,
        'run every task of the job with the same flags',
      );
  }
  const seen = new Set(reports.map((r) => r.shard.index));
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !seen.has(i));
  if (missing.length > 0 || seen.size !== reports.length)
    throw new CliUsageError(
      missing.length > 0
        ? `census reports are missing task${missing.length === 1 ? '' : 's'} ${missing.join(', ')} of ${count}`
        : `a task of the ${count} is given twice`,
      missing.length > 0
        ? `re-run only those tasks (--shard ${missing[0]}/${count}, or the job's task index) and merge again`
        : 'pass one report per task',
    );
  return {
    ...mergeCensuses(reports, first.maxPrefixes),
    table: first.table,
    shard: { index: 0, count: 1 },
    prefixComponents: first.prefixComponents,
    maxPrefixes: first.maxPrefixes,
    durationMs: Math.max(...reports.map((r) => r.durationMs)),
  };
}

function list(value: string): number[] {
  const counts = value.split(',').map((v) => Number(v.trim()));
  if (counts.length === 0 || counts.some((n) => !Number.isSafeInteger(n) || n < 1 || n > 1000)) {
    throw new InvalidArgumentError('expected bucket counts from 1 to 1000, comma-separated');
  }
  return counts;
}

async function readKeysFile(schema: EntitySchema, cwd: string, path: string): Promise<Record<string, unknown>[]> {
  const text = await readTextFile(cwd, path, '--keys');
  const trimmed = text.trim();
  const parse = (json: string, where: string): unknown => {
    try {
      return JSON.parse(json) as unknown;
    } catch (error) {
      throw new CliUsageError(
        `--keys ${where} is not JSON (${(error as Error).message})`,
        'write a JSON array, or one JSON object per line',
      );
    }
  };
  const items = trimmed.startsWith('[')
    ? (parse(trimmed, path) as unknown[])
    : trimmed.split('\n').flatMap((line, i) => (line.trim() === '' ? [] : [parse(line, `${path}:${i + 1}`)]));
  if (!Array.isArray(items) || items.length === 0)
    throw new CliUsageError(`--keys ${path} holds no keys`, 'give at least one key');
  return items.map((item, i) => keyValuesFromJson(schema, item, `--keys[${i}]`));
}

async function sampleKeys(
  ctx: CliContext,
  entity: Function,
  schema: EntitySchema,
  sample: number,
): Promise<Record<string, unknown>[]> {
  if (sample > MAX_SAMPLE)
    throw new CliUsageError(`--sample ${sample} is over ${MAX_SAMPLE}`, `sample at most ${MAX_SAMPLE} rows`);
  const mapper = ctx.connect([entity as never]);
  const ranges =
    schema.key.salt === undefined
      ? 1
      : schema.key.salt.allBuckets.length + (schema.key.salt.since === undefined ? 0 : 1);
  const keys: Record<string, unknown>[] = [];
  await readEntityRows(
    ctx,
    mapper,
    schema,
    (row) => {
      const values = keyValuesOf(schema, row);
      if (values !== undefined && keys.length < sample) keys.push(values);
    },
    { perRange: Math.ceil(sample / ranges), label: `sampling ${ctx.tableOf(schema)}`, valuesNeeded: false },
  );
  if (keys.length === 0)
    throw new CliUsageError(
      `table ${ctx.tableOf(schema)} has no rows of ${schema.name}`,
      'write some rows first, or pass --keys',
    );
  return keys;
}

function renderFindings(r: { entities: string[]; errors: number; warnings: number; findings: LintFinding[] }): string {
  const checked = `${count(r.entities.length, 'entity', 'entities')} checked`;
  if (r.findings.length === 0) return `${checked}: no findings`;
  const blocks = r.findings.map((f) => {
    const where = f.property ?? f.family;
    const head = `${f.severity.padEnd(7)} ${f.code}  ${f.entity}${where === undefined ? '' : `.${where}`}${f.suppressed === undefined ? '' : ' (suppressed)'}`;
    const reason = f.suppressed === undefined ? '' : `\n        suppressed: ${f.suppressed}`;
    return `${head}\n        ${f.message}\n        principle: ${f.principle}\n        fix: ${f.fix}${reason}`;
  });
  return `${blocks.join('\n\n')}\n\n${checked}: ${count(r.errors, 'error')}, ${count(r.warnings, 'warning')}`;
}

function renderStudy(s: BucketStudy, declared: number | undefined): string {
  const rows = s.rows.map((r) => [
    r.buckets === declared ? `${r.buckets} (declared)` : String(r.buckets),
    r.min,
    r.max,
    r.ratio === null ? 'inf' : r.ratio.toFixed(2),
    r.verdict,
  ]);
  return `${s.entity}: ${s.keys} keys hashed with ${s.hash} on ${s.on.join(', ')}; max/min under ${s.threshold} is good\n${formatTable(['buckets', 'min', 'max', 'max/min', 'verdict'], rows)}`;
}

function renderCensus(c: CensusReport): string {
  const part = c.shard.count === 1 ? '' : ` task ${shardText(c.shard)}`;
  const lines = [`${c.entity} (table ${c.table}${part}): ${count(c.rows, 'row')}, ${count(c.bytes, 'byte')}`];
  if (c.buckets.length > 0) {
    lines.push(
      formatTable(
        ['bucket', 'rows', 'bytes'],
        c.buckets.map((b) => [b.bucket, b.rows, b.bytes]),
      ),
    );
    const e = c.evenness!;
    const ratio = (spread: { ratio: number | null }): string => spread.ratio?.toFixed(2) ?? 'none (a bucket is empty)';
    lines.push(`evenness (max/min): rows ${ratio(e.rows)}, bytes ${ratio(e.bytes)}`);
    if (c.unsalted.rows > 0) lines.push(`unsalted rows: ${c.unsalted.rows} (${c.unsalted.bytes} bytes)`);
  }
  const top = [...c.prefixes].sort((a, b) => b.rows - a.rows).slice(0, 20);
  const approximate = c.prefixes.some((p) => p.rowsError > 0);
  lines.push(
    '',
    approximate
      ? `largest key prefixes (top ${top.length}; a count may exceed the true one by its "error"):`
      : `largest key prefixes (top ${top.length}, exact):`,
    formatTable(
      approximate ? ['prefix', 'rows', 'bytes', 'error'] : ['prefix', 'rows', 'bytes'],
      top.map((p) => (approximate ? [p.prefix, p.rows, p.bytes, p.rowsError] : [p.prefix, p.rows, p.bytes])),
    ),
  );
  if (c.otherPrefixes.rows > 0)
    lines.push(`other prefixes: ${c.otherPrefixes.prefixes}+ with ${c.otherPrefixes.rows} rows`);
  return lines.join('\n');
}
