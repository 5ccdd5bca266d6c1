import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { ResaltCheckpoint, ResaltResult } from '../repository/resalt.js';
import { CliUsageError, ExitCode } from './cli-errors.js';
import type { CliContext, Run } from './cli-context.js';
import { count, formatTable } from './cli-output.js';
import { positiveInteger, readTextFile } from './cli-values.js';
import { addShardOptions, shardOf, shardText, type Shard, type ShardFlags } from './cli-shard.js';

/** `resalt` (move a re-salted entity's rows from its previous layout to its declared one). */
export function addResaltCommands(program: Command, run: Run): void {
  addShardOptions(
    program
      .command('resalt')
      .description(
        "move an entity's rows from the layout in @Salt({ previous }) to the declared one, online; a task of n moves its part of the old buckets",
      ),
  )
    .argument('<entity>', 'entity class name or table id')
    .option('--batch-size <n>', 'rows copied, then deleted, per step (default 500)', positiveInteger)
    .option('--checkpoint <file>', 'resume from this file when it exists; written after every batch')
    .action(
      run(async (ctx: CliContext, name: string, flags: { batchSize?: number; checkpoint?: string } & ShardFlags) => {
        const started = performance.now();
        const { entity } = await ctx.entity(name);
        const shard = shardOf(flags, ctx.io.env);
        const mapper = ctx.connect(await ctx.entities());
        const file = flags.checkpoint === undefined ? undefined : resolve(ctx.io.cwd, flags.checkpoint);
        const resumeFrom = file === undefined ? undefined : await readCheckpoint(ctx.io.cwd, file);
        if (resumeFrom !== undefined) ctx.out.note(`resuming from ${flags.checkpoint}`);
        const label = shard.count === 1 ? `resalt ${name}` : `resalt ${name} (task ${shardText(shard)})`;
        const bar = ctx.out.progress(label, 1, ' buckets');
        let moved: ResaltResult;
        try {
          moved = await mapper.resalt(entity, {
            ...ctx.call,
            ...(shard.count === 1 ? {} : { shard }),
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
        const result: ResaltReport = { ...moved, shard, durationMs: Math.round(performance.now() - started) };
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

/** What a `resalt` run prints: the result, its shard and how long it took. */
interface ResaltReport extends ResaltResult {
  readonly shard: Shard;
  readonly durationMs: number;
}

function renderResult(r: ResaltReport): string {
  const table = formatTable(
    ['old bucket', 'seen', 'copied', 'present', 'deleted'],
    r.buckets.map((b) => [b.segment === '' ? '(unsalted)' : b.segment, b.seen, b.copied, b.present, b.deleted]),
  );
  const verdict =
    r.remaining === 0
      ? r.shard.count === 1
        ? 'no row is left in the previous layout: remove `previous` from @Salt'
        : `no row is left in this task's old buckets (task ${shardText(r.shard)}): done when every task reports 0`
      : `${count(r.remaining, 'row is', 'rows are')} still in the previous layout: run resalt again`;
  return `${table}\n${verdict}`;
}
