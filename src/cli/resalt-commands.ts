import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { ResaltCheckpoint, ResaltResult } from '../repository/resalt.js';
import { CliUsageError, ExitCode } from './cli-errors.js';
import type { CliContext, Run } from './cli-context.js';
import { count, formatTable } from './cli-output.js';
import { positiveInteger, readTextFile } from './cli-values.js';

/** `resalt` (move a re-salted entity's rows from its previous layout to its declared one). */
export function addResaltCommands(program: Command, run: Run): void {
  program
    .command('resalt')
    .description("move an entity's rows from the layout in @Salt({ previous }) to the declared one, online")
    .argument('<entity>', 'entity class name or table id')
    .option('--batch-size <n>', 'rows copied, then deleted, per step (default 500)', positiveInteger)
    .option('--checkpoint <file>', 'resume from this file when it exists; written after every batch')
    .action(
      run(async (ctx: CliContext, name: string, flags: { batchSize?: number; checkpoint?: string }) => {
        const { entity } = await ctx.entity(name);
        const mapper = ctx.connect(await ctx.entities());
        const file = flags.checkpoint === undefined ? undefined : resolve(ctx.io.cwd, flags.checkpoint);
        const resumeFrom = file === undefined ? undefined : await readCheckpoint(ctx.io.cwd, file);
        if (resumeFrom !== undefined) ctx.out.note(`resuming from ${flags.checkpoint}`);
        const bar = ctx.out.progress(`resalt ${name}`, 1, ' buckets');
        let result: ResaltResult;
        try {
          result = await mapper.resalt(entity, {
            ...ctx.call,
            ...(flags.batchSize === undefined ? {} : { batchSize: flags.batchSize }),
            ...(resumeFrom === undefined ? {} : { resumeFrom }),
            onProgress: (p) => {
              bar.setTotal(p.ranges);
              bar.update(p.rangesDone, { rows: p.seen });
              if (file !== undefined) writeCheckpoint(file, p.checkpoint);
            },
          });
        } finally {
          bar.stop();
        }
        ctx.out.result(result, renderResult);
        return result.remaining === 0 ? ExitCode.Ok : ExitCode.CheckFailed;
      }),
    );
}

/** The checkpoint file, when it exists: bounded like every file the command reads (64 MiB). */
async function readCheckpoint(cwd: string, file: string): Promise<ResaltCheckpoint | undefined> {
  if (!existsSync(file)) return undefined;
  const text = await readTextFile(cwd, file, '--checkpoint');
  try {
    return JSON.parse(text) as ResaltCheckpoint;
  } catch (error) {
    throw new CliUsageError(
      `the checkpoint file ${file} is not JSON (${(error as Error).message})`,
      'delete it to start over (safe: moved rows are not copied twice)',
    );
  }
}

/** Written beside, then renamed over the file, so a crash mid-write never leaves half a checkpoint. */
function writeCheckpoint(file: string, checkpoint: ResaltCheckpoint): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(checkpoint));
  renameSync(`${file}.tmp`, file);
}

function renderResult(r: ResaltResult): string {
  const table = formatTable(
    ['old bucket', 'seen', 'copied', 'present', 'deleted'],
    r.buckets.map((b) => [b.segment === '' ? '(unsalted)' : b.segment, b.seen, b.copied, b.present, b.deleted]),
  );
  const verdict =
    r.remaining === 0
      ? 'no row is left in the previous layout: remove `previous` from @Salt'
      : `${count(r.remaining, 'row is', 'rows are')} still in the previous layout: run resalt again`;
  return `${table}\n${verdict}`;
}
