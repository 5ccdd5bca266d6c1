import type { Command } from 'commander';
import type { ScanShard } from '../scan/shards.js';
import { shardPart } from '../util/shard-part.js';
import { CliUsageError } from './cli-errors.js';
import type { CliIo } from './cli-output.js';
import { parseJsonFile, readTextFile } from './cli-values.js';

/** The most tasks a job can be split into. */
export const MAX_SHARDS = 10_000;

/** One task's part of a job: shard `index` of `count` (0 ≤ index < count). */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** A task's shard with, when `--plan` gave one, its tablet-aligned piece of the scan (`mapper.planShards()`). */
export interface TaskShard extends Shard {
  readonly plan?: ScanShard;
}

/** The flags of a long command that runs as one of n tasks. */
export interface ShardFlags {
  shard?: string;
  shards?: string;
  plan?: string;
}

/** The whole job as one task. */
const WHOLE: Shard = { index: 0, count: 1 };

/** Adds `--shard i/n` and `--shards n` to a long command. */
export function addShardOptions(command: Command): Command {
  return command
    .option(
      '--shard <i/n>',
      'run task i of n (0-based); default CLOUD_RUN_TASK_INDEX/CLOUD_RUN_TASK_COUNT, or JOB_COMPLETION_INDEX with --shards',
    )
    .option('--shards <n>', 'task count when the index comes from JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs)');
}

/** Adds `--plan <file>` to a command that reads its shard of a scan. */
export function addPlanOption(command: Command): Command {
  return command.option(
    '--plan <file>',
    'the shard plan `bigtable-mapper shards` wrote (tablet-aligned shards); without it a shard is a group of salt buckets',
  );
}

/**
 * The task's shard ({@link shardOf}) and, with `--plan`, its piece of the plan file: a JSON array of
 * as many shards as there are tasks (checked against the task count here, and against the entity and
 * the query when the scan reads it).
 */
export async function taskShard(flags: ShardFlags, io: CliIo): Promise<TaskShard> {
  const shard = shardOf(flags, io.env);
  if (flags.plan === undefined) return shard;
  const plan = parseJsonFile(await readTextFile(io.cwd, flags.plan, '--plan'), `--plan ${flags.plan}`);
  if (!Array.isArray(plan) || plan.length !== shard.count)
    throw new CliUsageError(
      `--plan ${flags.plan} is not a plan of ${shard.count} shard${shard.count === 1 ? '' : 's'} (the task count)`,
      `write it with \`bigtable-mapper shards <entity> --shards ${shard.count}\` (and the same --where), and run that many tasks`,
    );
  return { ...shard, plan: plan[shard.index] as ScanShard };
}

/**
 * The task's shard: `--shard i/n` first; then `--shards n` with `JOB_COMPLETION_INDEX`
 * (Kubernetes Indexed Jobs); then `CLOUD_RUN_TASK_INDEX` and `CLOUD_RUN_TASK_COUNT`
 * (Cloud Run Jobs); else the whole job (0/1). A malformed or out-of-range value is a usage error.
 */
export function shardOf(flags: ShardFlags, env: CliIo['env']): Shard {
  if (flags.shard !== undefined) {
    const match = /^(\d+)\/(\d+)$/.exec(flags.shard.trim());
    if (match === null)
      throw new CliUsageError(`--shard ${flags.shard} is not i/n`, 'pass the task index and count, e.g. --shard 0/4');
    return checked(Number(match[1]), Number(match[2]), `--shard ${flags.shard}`);
  }
  if (flags.shards !== undefined) {
    const count = integer(flags.shards, '--shards');
    const index = env.JOB_COMPLETION_INDEX;
    if (index === undefined || index === '')
      throw new CliUsageError(
        '--shards needs the task index',
        'run it in a Kubernetes Indexed Job (JOB_COMPLETION_INDEX), or pass --shard i/n',
      );
    return checked(integer(index, 'JOB_COMPLETION_INDEX'), count, `JOB_COMPLETION_INDEX ${index} of --shards ${count}`);
  }
  const cloudIndex = env.CLOUD_RUN_TASK_INDEX;
  const cloudCount = env.CLOUD_RUN_TASK_COUNT;
  if ((cloudIndex ?? '') !== '' || (cloudCount ?? '') !== '') {
    if ((cloudIndex ?? '') === '' || (cloudCount ?? '') === '')
      throw new CliUsageError(
        'CLOUD_RUN_TASK_INDEX and CLOUD_RUN_TASK_COUNT must be set together',
        'set both (Cloud Run Jobs does), or pass --shard i/n',
      );
    return checked(
      integer(cloudIndex as string, 'CLOUD_RUN_TASK_INDEX'),
      integer(cloudCount as string, 'CLOUD_RUN_TASK_COUNT'),
      `CLOUD_RUN_TASK_INDEX ${cloudIndex} of CLOUD_RUN_TASK_COUNT ${cloudCount}`,
    );
  }
  return WHOLE;
}

/** `i/n`, as the flag takes it. */
export function shardText(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/** The shard as a task reports it: its index and count. */
export function shardJson(shard: Shard): Shard {
  return { index: shard.index, count: shard.count };
}

/**
 * The sources of a scan plan that shard `index` of `count` reads: the plan's ranges (one per salt
 * bucket) cut into `count` contiguous groups whose sizes differ by at most one, so every range is
 * read by exactly one task. With fewer ranges than tasks, the last tasks read nothing. The one place
 * a task's part is chosen.
 */
export function sourcesOfShard<S>(sources: readonly S[], shard: Shard): S[] {
  return shardPart(sources, shard.index, shard.count);
}

function integer(text: string, name: string): number {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed))
    throw new CliUsageError(`${name} ${text} is not a whole number`, `set ${name} to a number from 0`);
  return Number(trimmed);
}

function checked(index: number, count: number, given: string): Shard {
  if (count < 1 || count > MAX_SHARDS)
    throw new CliUsageError(
      `${given}: the task count must be from 1 to ${MAX_SHARDS}`,
      'split the job into fewer tasks',
    );
  if (index >= count)
    throw new CliUsageError(`${given}: the task index must be below the count`, `pass an index from 0 to ${count - 1}`);
  return { index, count };
}
