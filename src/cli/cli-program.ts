import { Command, CommanderError } from 'commander';
import { CliContext, type GlobalFlags, type Run } from './cli-context.js';
import { exitCodeOf, ExitCode } from './cli-errors.js';
import { processIo, type CliIo } from './cli-output.js';
import { jsonSafe, positiveInteger } from './cli-values.js';
import { addKeyCommands } from './key-commands.js';
import { addRepropagateCommands } from './repropagate-commands.js';
import { addResaltCommands } from './resalt-commands.js';
import { addSchemaCommands } from './schema-commands.js';
import { addShardCommands } from './shard-commands.js';
import { addSimulateCommands } from './simulate-commands.js';
import { addStudyCommands } from './study-commands.js';
import { addTransferCommands } from './transfer-commands.js';

/**
 * Runs the `bigtable-mapper` command line and resolves to its exit code
 * (see `ExitCode`). `io` defaults to the process's streams.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo = processIo(),
  signal: AbortSignal = new AbortController().signal,
): Promise<number> {
  let exitCode: number = ExitCode.Ok;
  const program = new Command('bigtable-mapper');
  const run: Run =
    (action) =>
    async (...args) => {
      const ctx = new CliContext(io, program.opts<GlobalFlags>(), signal);
      try {
        exitCode = await action(ctx, ...args);
      } catch (error) {
        exitCode = exitCodeOf(error);
        if (ctx.out.json) io.stdout(`${JSON.stringify({ error: jsonSafe(errorJson(error)), exitCode })}\n`);
        io.stderr(`bigtable-mapper: ${(error as Error).message}\n`);
      } finally {
        await ctx.close();
      }
    };

  program
    .description(
      'Key-design tooling for bigtable-mapper entities: schema sync, scan plans, keys, lint, studies and hotspot pictures; long jobs (census, resalt, repropagate, export, import) that run as n tasks',
    )
    .option(
      '-e, --entities <module>',
      'module exporting the entity classes (repeatable; or BIGTABLE_MAPPER_ENTITIES, comma-separated)',
      collect,
    )
    .option('--instance <id>', 'Bigtable instance (or BIGTABLE_INSTANCE)')
    .option('--project <id>', 'Google Cloud project (or BIGTABLE_PROJECT, GOOGLE_CLOUD_PROJECT)')
    .option('--emulator-host <host:port>', 'a loopback emulator (or BIGTABLE_EMULATOR_HOST)')
    .option('--timeout-ms <ms>', 'deadline of each Bigtable call', positiveInteger)
    .option(
      '--table-prefix <prefix>',
      "prefix of every table id, as the mapper's tablePrefix (or BIGTABLE_TABLE_PREFIX)",
    )
    .option(
      '--app-profile <id>',
      'app profile of every data call, e.g. a Data Boost or low-priority profile for a long job (or BIGTABLE_APP_PROFILE)',
    )
    .option('--json', 'print one JSON document on stdout instead of text')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  addSchemaCommands(program, run);
  addKeyCommands(program, run);
  addStudyCommands(program, run);
  addSimulateCommands(program, run);
  addResaltCommands(program, run);
  addRepropagateCommands(program, run);
  addTransferCommands(program, run);
  addShardCommands(program, run);

  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return error.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
  }
  return exitCode;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(',').filter((v) => v !== '')];
}

function errorJson(error: unknown): Record<string, unknown> {
  const e = error as { name?: string; message?: string; code?: unknown; details?: unknown };
  return { name: e.name, message: e.message, code: e.code, details: e.details };
}
