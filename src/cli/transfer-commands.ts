import { once } from 'node:events';
import { createReadStream, createWriteStream, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { Option } from 'commander';
import { PartialWriteError } from '../errors/operation-errors.js';
import { ValidationError } from '../errors/errors.js';
import { fromJson, toJson } from '../json-form/json-conversion.js';
import { toJsonSchema } from '../json-form/to-json-schema.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import type { Constructor } from '../model/declarations.js';
import type { Repository } from '../repository/repository.js';
import { CliUsageError, ExitCode } from './cli-errors.js';
import type { CliContext, Run } from './cli-context.js';
import { count } from './cli-output.js';
import {
  addPlanOption,
  addShardOptions,
  shardJson,
  shardOf,
  shardText,
  taskShard,
  type Shard,
  type ShardFlags,
} from './cli-shard.js';
import { parseJsonArgument, positiveInteger, whereFromJson } from './cli-values.js';
import { csvRecord, CsvSyntaxError, MAX_RECORD_CHARS, parseCsv, type CsvCell } from './csv.js';
import { entitiesOfShard } from './shard-scan.js';

/** Rejected records listed one by one in a report; the rest are only counted. */
const MAX_LISTED_REJECTIONS = 1000;
/** Valid records written per bulk write. */
const DEFAULT_IMPORT_BATCH = 500;
const MAX_IMPORT_BATCH = 10_000;

type Format = 'ndjson' | 'csv';
/** An entity of any class, as the command line sees it. */
type Row = Record<string, unknown>;

/** `export` and `import`: an entity's rows as NDJSON or CSV, through its JSON form. */
export function addTransferCommands(program: Command, run: Run): void {
  addPlanOption(
    addShardOptions(
      program
        .command('export')
        .description(
          'write the decoded entities of a table (or of a --where range) as NDJSON or CSV, in their JSON form, to stdout or --out',
        ),
    ),
  )
    .argument('<entity>', 'entity class name or table id')
    .addOption(new Option('--format <format>', 'ndjson or csv').choices(['ndjson', 'csv']).default('ndjson'))
    .option('--out <file>', 'write to this file (written beside it, then renamed: a failed task leaves none)')
    .option('--where <json>', 'key conditions, e.g. \'{"userId":"u1","at":{"gte":"2026-01-01T00:00:00Z"}}\'', '{}')
    .action(
      run(
        async (ctx: CliContext, name: string, flags: { format: Format; out?: string; where: string } & ShardFlags) => {
          const started = performance.now();
          const { entity, schema } = await ctx.entity(name);
          const shard = await taskShard(flags, ctx.io);
          const where = whereFromJson(schema, parseJsonArgument(flags.where, '--where'));
          const mapper = ctx.connect([entity]);
          const table = ctx.tableOf(schema);
          const label = `export ${table}${shard.count === 1 ? '' : ` (task ${shardText(shard)})`}`;
          const bar = ctx.out.progress(label, 1, ' ranges');
          const sink = openSink(ctx, flags.out);
          let exported = 0;
          try {
            const properties = propertiesOf(schema);
            if (flags.format === 'csv') await sink.write(csvRecord(properties));
            const rows = entitiesOfShard(ctx, mapper, schema, where, shard, label, (done, total) => {
              bar.setTotal(total);
              bar.update(done);
            });
            for await (const batch of rows) {
              let text = '';
              for (const item of batch) {
                const json = toJson(entity, item);
                text +=
                  flags.format === 'ndjson'
                    ? `${JSON.stringify(json)}\n`
                    : csvRecord(properties.map((p) => (json[p] === undefined ? undefined : cellText(json[p]))));
              }
              exported += batch.length;
              await sink.write(text);
            }
            await sink.done();
          } catch (error) {
            sink.abandon();
            throw error;
          } finally {
            bar.stop();
          }
          const report: ExportReport = {
            entity: schema.name,
            table,
            format: flags.format,
            shard: shardJson(shard),
            exported,
            out: flags.out ?? null,
            durationMs: Math.round(performance.now() - started),
          };
          // The records own stdout when no --out is given: the report then goes to stderr.
          if (flags.out !== undefined) ctx.out.result(report, renderExport);
          else ctx.io.stderr(ctx.out.json ? `${JSON.stringify(report)}\n` : `${renderExport(report)}\n`);
          return ExitCode.Ok;
        },
      ),
    );

  addShardOptions(
    program
      .command('import')
      .description(
        'write the records of an NDJSON or CSV file (as export writes them), each checked through the entity first; rejected records are reported, never written',
      ),
  )
    .argument('<entity>', 'entity class name or table id')
    .argument('<file>', 'the records: .ndjson/.jsonl or .csv (or say --format)')
    .addOption(
      new Option('--format <format>', 'ndjson or csv (default: by the file extension)').choices(['ndjson', 'csv']),
    )
    .option(
      '--batch-size <n>',
      `valid records per bulk write (default ${DEFAULT_IMPORT_BATCH}, at most ${MAX_IMPORT_BATCH})`,
      positiveInteger,
    )
    .action(
      run(
        async (
          ctx: CliContext,
          name: string,
          file: string,
          flags: { format?: Format; batchSize?: number } & ShardFlags,
        ) => {
          const started = performance.now();
          const { entity, schema } = await ctx.entity(name);
          const shard = shardOf(flags, ctx.io.env);
          const format = flags.format ?? formatOfFile(file);
          const batchSize = flags.batchSize ?? DEFAULT_IMPORT_BATCH;
          if (batchSize > MAX_IMPORT_BATCH)
            throw new CliUsageError(`--batch-size ${batchSize} is over ${MAX_IMPORT_BATCH}`, 'write smaller batches');
          const mapper = ctx.connect(await ctx.entities());
          const repo = mapper.getRepository(entity as Constructor<Row>);
          const path = resolve(ctx.io.cwd, file);
          const counts = { read: 0, written: 0, rejected: 0, failed: 0 };
          const rejections: Rejection[] = [];
          let problems = 0;
          const list = (line: number, field: string | null, message: string): void => {
            problems++;
            if (rejections.length < MAX_LISTED_REJECTIONS) rejections.push({ line, field, message });
          };
          const reject = (line: number, found: readonly { field: string | null; message: string }[]): void => {
            counts.rejected++;
            for (const p of found) list(line, p.field, p.message);
          };
          const fail = (line: number, message: string): void => {
            counts.failed++;
            list(line, null, `not written: ${message}`);
          };
          let batch: { line: number; entity: Row }[] = [];
          const flush = async (): Promise<void> => {
            const writing = batch;
            batch = [];
            if (writing.length === 0) return;
            try {
              counts.written += (
                await repo.saveMany(
                  writing.map((w) => w.entity),
                  { ...ctx.call },
                )
              ).written;
            } catch (error) {
              if (!(error instanceof PartialWriteError)) throw error;
              counts.written += error.succeeded;
              for (const f of error.failures) fail(writing[f.index]?.line ?? 0, f.message);
              for (const i of error.notAttempted) fail(writing[i]?.line ?? 0, 'the bulk write stopped first');
            }
          };
          const label = `import ${ctx.tableOf(schema)}${shard.count === 1 ? '' : ` (task ${shardText(shard)})`}`;
          const bar = ctx.out.progress(label, 0, ' records');
          let ordinal = 0;
          try {
            for await (const record of readRecords(path, file, format, schema)) {
              // Task i of n takes the records whose position in the file is i modulo n.
              if (ordinal++ % shard.count !== shard.index) continue;
              counts.read++;
              if ('problem' in record) {
                reject(record.line, [{ field: record.field, message: record.problem }]);
                continue;
              }
              const checked = checkRecord(entity as Constructor<Row>, repo, record.json);
              if ('issues' in checked) reject(record.line, checked.issues);
              else batch.push({ line: record.line, entity: checked.entity });
              if (batch.length >= batchSize) await flush();
              bar.setTotal(counts.read);
              bar.update(counts.read);
            }
            await flush();
          } finally {
            bar.stop();
          }
          const report: ImportReport = {
            entity: schema.name,
            table: ctx.tableOf(schema),
            file,
            format,
            shard,
            ...counts,
            rejections,
            rejectionsOmitted: problems - rejections.length,
            durationMs: Math.round(performance.now() - started),
          };
          ctx.out.result(report, renderImport);
          return counts.rejected === 0 && counts.failed === 0 ? ExitCode.Ok : ExitCode.CheckFailed;
        },
      ),
    );
}

/** What `export` reports. */
interface ExportReport {
  readonly entity: string;
  readonly table: string;
  readonly format: Format;
  readonly shard: Shard;
  readonly exported: number;
  readonly out: string | null;
  readonly durationMs: number;
}

/** One problem of a rejected record: its line (1-based; a CSV record's first line), the field, what is wrong. */
interface Rejection {
  readonly line: number;
  readonly field: string | null;
  readonly message: string;
}

/** What `import` reports. */
interface ImportReport {
  readonly entity: string;
  readonly table: string;
  readonly file: string;
  readonly format: Format;
  readonly shard: Shard;
  /** Records of this task's shard read from the file. */
  readonly read: number;
  readonly written: number;
  /** Records refused by the checks: never written. */
  readonly rejected: number;
  /** Valid records the server did not take (listed as `not written`); running the import again writes them. */
  readonly failed: number;
  /** Each problem of a rejected or failed record (a record can have several), the first 1,000. */
  readonly rejections: readonly Rejection[];
  /** Problems past the first 1,000, counted only. */
  readonly rejectionsOmitted: number;
  readonly durationMs: number;
}

/** The properties a record has, in the order export writes them: key parts, columns, then the `@CellTimestamp` property. */
function propertiesOf(schema: EntitySchema): string[] {
  return [
    ...schema.key.properties,
    ...schema.columns.map((c) => c.property),
    ...(schema.cellTimestamp === undefined ? [] : [schema.cellTimestamp]),
  ];
}

/** A JSON value as a CSV cell: text as it is, other scalars and every array or object as JSON. */
function cellText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function formatOfFile(file: string): Format {
  if (/\.(ndjson|jsonl)$/i.test(file)) return 'ndjson';
  if (/\.csv$/i.test(file)) return 'csv';
  throw new CliUsageError(
    `cannot tell the format of ${file} from its extension`,
    'pass --format ndjson or --format csv',
  );
}

/** Where `export` writes: the file's `.part` sibling renamed at the end, or stdout; each write waits while the stream is full. */
function openSink(
  ctx: CliContext,
  out: string | undefined,
): { write(text: string): Promise<void>; done(): Promise<void>; abandon(): void } {
  if (out === undefined) {
    const stream = ctx.io.stdoutStream;
    return {
      write: async (text) => {
        if (stream === undefined) ctx.io.stdout(text);
        else if (!stream.write(text)) await once(stream, 'drain');
      },
      done: async () => {},
      abandon: () => {},
    };
  }
  const file = resolve(ctx.io.cwd, out);
  const part = `${file}.part`;
  const stream = createWriteStream(part);
  return {
    write: async (text) => {
      if (!stream.write(text)) await once(stream, 'drain');
    },
    done: async () => {
      stream.end();
      await once(stream, 'finish');
      renameSync(part, file);
    },
    abandon: () => {
      stream.destroy();
      rmSync(part, { force: true });
    },
  };
}

type RawRecord =
  { line: number; json: Record<string, unknown> } | { line: number; field: string | null; problem: string };

/** The file's records as JSON objects (CSV cells converted by each property's JSON type), or the problem of each unreadable one. */
async function* readRecords(
  path: string,
  file: string,
  format: Format,
  schema: EntitySchema,
): AsyncGenerator<RawRecord> {
  const input = createReadStream(path, { encoding: 'utf8' });
  const failed = new Promise<never>((_, reject) =>
    input.once('error', (error) =>
      reject(new CliUsageError(`cannot read ${file}: ${error.message}`, 'give a readable NDJSON or CSV file')),
    ),
  );
  failed.catch(() => {});
  await Promise.race([once(input, 'open'), failed]);
  if (format === 'ndjson') {
    let line = 0;
    for await (const text of createInterface({ input, crlfDelay: Infinity })) {
      line++;
      if (text.trim() === '') continue;
      if (text.length > MAX_RECORD_CHARS) {
        yield { line, field: null, problem: `the line is over ${MAX_RECORD_CHARS} characters` };
        continue;
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        yield { line, field: null, problem: `not JSON: ${(error as Error).message}` };
        continue;
      }
      if (json === null || typeof json !== 'object' || Array.isArray(json))
        yield { line, field: null, problem: 'not a JSON object' };
      else yield { line, json: json as Record<string, unknown> };
    }
    return;
  }
  const types = jsonTypes(schema);
  let header: string[] | undefined;
  try {
    for await (const row of parseCsv(input as AsyncIterable<string>)) {
      if (header === undefined) {
        header = row.cells.map((c) => c.text);
        const unknown = header.filter((h) => !types.has(h));
        if (unknown.length > 0)
          throw new CliUsageError(
            `the CSV header of ${file} names ${unknown.map((u) => JSON.stringify(u)).join(', ')}, not properties of ${schema.name}`,
            `name the columns as export writes them: ${[...types.keys()].join(', ')}`,
          );
        const repeated = header.find((h, i) => header!.indexOf(h) !== i);
        if (repeated !== undefined)
          throw new CliUsageError(
            `the CSV header of ${file} names ${JSON.stringify(repeated)} twice`,
            'give each property one column',
          );
        continue;
      }
      if (row.cells.length !== header.length) {
        yield { line: row.line, field: null, problem: `${row.cells.length} fields, the header has ${header.length}` };
        continue;
      }
      const json: Record<string, unknown> = {};
      let problem: RawRecord | undefined;
      for (const [i, cell] of row.cells.entries()) {
        const property = header[i] as string;
        const value = cellValue(cell, types.get(property));
        if (value instanceof Error) problem ??= { line: row.line, field: property, problem: value.message };
        else if (value !== undefined) json[property] = value;
      }
      yield problem ?? { line: row.line, json };
    }
  } catch (error) {
    if (error instanceof CsvSyntaxError)
      throw new CliUsageError(`${file} is not valid CSV: ${error.message}`, 'write RFC 4180 CSV, as export does');
    throw error;
  }
}

/** Each property's JSON type in the create body's JSON Schema (`string` cells are taken as text). */
function jsonTypes(schema: EntitySchema): Map<string, unknown> {
  const body = toJsonSchema(schema.target as Constructor, { for: 'create' }) as {
    properties?: Record<string, { type?: unknown }>;
  };
  return new Map(propertiesOf(schema).map((p) => [p, body.properties?.[p]?.type]));
}

/** A CSV cell as its JSON value: missing when empty and unquoted; text for a `string` property; otherwise JSON (text when it is none, e.g. `NaN`). */
function cellValue(cell: CsvCell, type: unknown): unknown {
  if (cell.text === '' && !cell.quoted) return undefined;
  if (type === 'string') return cell.text;
  try {
    return JSON.parse(cell.text) as unknown;
  } catch {
    return cell.text;
  }
}

/** A record through the entity's JSON form and its write checks (key, codecs, validators), or every issue found. */
function checkRecord(
  entity: Constructor<Row>,
  repo: Repository<Row>,
  json: Record<string, unknown>,
): { entity: Row } | { issues: { field: string | null; message: string }[] } {
  try {
    const created = repo.create(fromJson(entity, json, { for: 'create' }));
    repo.compileSave(created);
    return { entity: created };
  } catch (error) {
    if (!(error instanceof ValidationError) && !(error instanceof Error && 'code' in error)) throw error;
    const issues = error instanceof ValidationError ? error.issues : [];
    // The field as the record names it: the issue's path without the entity's name (`tags[2]`, `address.city`).
    const field = (path: string): string =>
      path.startsWith(`${entity.name}.`) ? path.slice(entity.name.length + 1) : path;
    if (issues.length > 0) return { issues: issues.map((i) => ({ field: field(i.path), message: String(i.message) })) };
    const details = (error as { details?: { property?: unknown } }).details;
    const property = typeof details?.property === 'string' ? details.property : null;
    return { issues: [{ field: property, message: (error as Error).message }] };
  }
}

function renderExport(r: ExportReport): string {
  const task = r.shard.count === 1 ? '' : ` (task ${shardText(r.shard)})`;
  return `${count(r.exported, 'entity', 'entities')} of ${r.entity} exported as ${r.format}${task}${r.out === null ? '' : ` to ${r.out}`}`;
}

function renderImport(r: ImportReport): string {
  const task = r.shard.count === 1 ? '' : ` (task ${shardText(r.shard)})`;
  const failed = r.failed === 0 ? '' : `, ${r.failed} not written`;
  const head = `${r.file}${task}: ${count(r.read, 'record')} read, ${r.written} written, ${r.rejected} rejected${failed}`;
  const lines = r.rejections.map((x) => `  line ${x.line}${x.field === null ? '' : ` ${x.field}`}: ${x.message}`);
  if (r.rejectionsOmitted > 0) lines.push(`  and ${r.rejectionsOmitted} more`);
  return [head, ...lines].join('\n');
}
