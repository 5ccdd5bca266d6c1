import type { Command } from 'commander';
import { printableBytes } from '../util/printable-bytes.js';
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
        ctx.out.result(describe(schema, encoded.key, values), render);
        return ExitCode.Ok;
      }),
    );

  key
    .command('decode')
    .description('the key values and salt bucket of a physical row key (as logged, or in hex/base64)')
    .argument('<entity>', 'entity class name or table id')
    .argument('<key>', 'the row key; non-printable bytes as \\xNN')
    .option('--format <format>', 'how <key> is written: text, hex or base64', 'text')
    .action(
      run(async (ctx: CliContext, name: string, text: string, flags: { format: string }) => {
        const { schema } = await ctx.entity(name);
        if (flags.format !== 'text' && flags.format !== 'hex' && flags.format !== 'base64') {
          ctx.out.note(`unknown --format "${flags.format}": use text, hex or base64`);
          return ExitCode.Usage;
        }
        const bytes = parseKeyText(text, flags.format);
        ctx.out.result(describe(schema, bytes, decodeRowKey(schema, bytes)), render);
        return ExitCode.Ok;
      }),
    );
}

function describe(schema: EntitySchema, key: Buffer, values: Record<string, unknown>): KeyDescription {
  const bucket = bucketOfRowKey(schema, key);
  return {
    entity: schema.name,
    table: schema.table,
    key: printableBytes(key),
    hex: key.toString('hex'),
    bucket,
    values: jsonSafe(hexBytes(values)) as Record<string, unknown>,
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
  const lines = [`${d.entity} (table ${d.table})`, `  key     ${d.key}`, `  hex     ${d.hex}`];
  if (d.bucket !== undefined) lines.push(`  bucket  ${d.bucket}`);
  for (const [name, value] of Object.entries(d.values)) lines.push(`  ${name.padEnd(7)} ${JSON.stringify(value)}`);
  return lines.join('\n');
}
