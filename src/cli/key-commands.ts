import type { Command } from 'commander';
import { printableBytes } from '../util/printable-bytes.js';
import { decodeKeyPrefix, type KeyPrefix } from '../key/key-prefix.js';
import { bucketOfRowKey, decodeRowKey, encodeRowKey } from '../key/physical-key.js';
import type { EntitySchema } from '../metadata/entity-schema.js';
import { ExitCode } from './cli-errors.js';
import type { CliContext, Run } from './cli-context.js';
import { jsonSafe, keyValuesFromJson, parseJsonArgument, parseKeyText } from './cli-values.js';

interface KeyDescription {
  entity: string;
  table: string;
  key: string;
  hex: string;
  bucket: number | undefined;
  values: Record<string, unknown>;
  /** Present when the key is no whole row key but a key prefix (a scan bound). */
  prefix?: PrefixDescription;
}

interface PrefixDescription {
  /** Key parts (literals included) the prefix holds whole, of a whole key's. */
  parts: number;
  of: number;
  /** The layout of the salt segment: salted, unsalted, or previous (being re-salted from). */
  layout: KeyPrefix['layout'];
  /** True for an end bound one past a prefix: the first key after every key that starts with `startsWith`. */
  after: boolean;
  /** The prefix the keys start with (the key itself, or one less for `after`). */
  startsWith: string;
  /** The start of the next key part, when the bound stops inside it (a range bound on that part). */
  partial?: { part: string; text: string; value: unknown };
}

/** `key encode` and `key decode`: between an entity's key values and the physical row key, salt bucket included. */
export function addKeyCommands(program: Command, run: Run): void {
  const key = program.command('key').description('encode key values to a physical row key, or decode one back');

  key
    .command('encode')
    .description('the physical row key (and salt bucket) of key values')
    .argument('<entity>', 'entity class name or table id')
    .argument('<json>', 'key values, e.g. \'{"userId":"u1","at":"2026-01-31T12:00:00Z"}\'')
    .action(
      run(async (ctx: CliContext, name: string, json: string) => {
        const { schema } = await ctx.entity(name);
        const values = keyValuesFromJson(schema, parseJsonArgument(json, '<json>'), '<json>');
        const encoded = encodeRowKey(schema, values);
        ctx.out.result(describe(ctx, schema, encoded.key, values), render);
        return ExitCode.Ok;
      }),
    );

  key
    .command('decode')
    .description(
      'the key values and salt bucket of a physical row key (as logged, or in hex/base64), or of a key prefix such as a bound `plan` prints',
    )
    .argument('<entity>', 'entity class name or table id')
    .argument(
      '<key>',
      'the row key; non-printable bytes as \\xNN (a key starting with "-", like -3-u1-, is read as the key)',
    )
    .option('--format <format>', 'how <key> is written: text, hex or base64', 'text')
    // Keys of negative salt buckets start with "-": read them as the key, not as an unknown option.
    .allowUnknownOption()
    .action(
      run(async (ctx: CliContext, name: string, text: string, flags: { format: string }) => {
        const { schema } = await ctx.entity(name);
        if (flags.format !== 'text' && flags.format !== 'hex' && flags.format !== 'base64') {
          ctx.out.note(`unknown --format "${flags.format}": use text, hex or base64`);
          return ExitCode.Usage;
        }
        const bytes = parseKeyText(text, flags.format);
        ctx.out.result(decode(ctx, schema, bytes), render);
        return ExitCode.Ok;
      }),
    );
}

/** A whole row key, else a key prefix (a scan bound); a key that is neither throws the row key's decoding error. */
function decode(ctx: CliContext, schema: EntitySchema, bytes: Buffer): KeyDescription {
  let values: Record<string, unknown>;
  try {
    values = decodeRowKey(schema, bytes);
  } catch (error) {
    const prefix = decodeKeyPrefix(schema, bytes);
    if (prefix === undefined) throw error;
    return describePrefix(ctx, schema, bytes, prefix);
  }
  return describe(ctx, schema, bytes, values);
}

function describe(ctx: CliContext, schema: EntitySchema, key: Buffer, values: Record<string, unknown>): KeyDescription {
  const bucket = bucketOfRowKey(schema, key);
  return {
    entity: schema.name,
    table: ctx.tableOf(schema),
    key: printableBytes(key),
    hex: key.toString('hex'),
    bucket,
    values: jsonSafe(hexBytes(values)) as Record<string, unknown>,
  };
}

function describePrefix(ctx: CliContext, schema: EntitySchema, key: Buffer, prefix: KeyPrefix): KeyDescription {
  const startsWith = Buffer.from(key);
  if (prefix.after) startsWith[startsWith.length - 1] = (startsWith[startsWith.length - 1] as number) - 1;
  const description: PrefixDescription = {
    parts: prefix.parts,
    of: prefix.of,
    layout: prefix.layout,
    after: prefix.after,
    startsWith: printableBytes(startsWith),
  };
  if (prefix.partial !== undefined) {
    const [value] = Object.values(jsonSafe(hexBytes({ value: prefix.partial.value })) as Record<string, unknown>);
    description.partial = { ...prefix.partial, value };
  }
  return {
    entity: schema.name,
    table: ctx.tableOf(schema),
    key: printableBytes(key),
    hex: key.toString('hex'),
    bucket: prefix.bucket,
    values: jsonSafe(hexBytes(prefix.values)) as Record<string, unknown>,
    prefix: description,
  };
}

/** `bytes` key values as hex, the form `key encode` reads back. */
function hexBytes(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [
      name,
      value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value,
    ]),
  );
}

function render(d: KeyDescription): string {
  const rows: [string, string][] = [
    ['key', d.key],
    ['hex', d.hex],
  ];
  if (d.prefix !== undefined) rows.push(['prefix', prefixText(d.prefix)]);
  if (d.bucket !== undefined) rows.push(['bucket', String(d.bucket)]);
  for (const [name, value] of Object.entries(d.values)) rows.push([name, JSON.stringify(value)]);
  const p = d.prefix?.partial;
  if (p !== undefined) rows.push([p.part, `${JSON.stringify(p.value)} (a range bound inside this key part)`]);
  const width = Math.max(...rows.map(([label]) => label.length));
  return [`${d.entity} (table ${d.table})`, ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)].join(
    '\n',
  );
}

function prefixText(p: PrefixDescription): string {
  const parts = `a key prefix (a scan bound): ${p.parts} of ${p.of} key parts`;
  const layout = p.layout === 'previous' ? ', in the previous salt layout' : '';
  if (p.after) return `${parts}${layout}; the end of the keys that start with ${p.startsWith}`;
  if (p.partial !== undefined) return `${parts}${layout}, then the start of ${p.partial.part}`;
  return `${parts}${layout}`;
}
