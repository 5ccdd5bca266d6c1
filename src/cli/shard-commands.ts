import type { Command } from 'commander';
import type { Constructor } from '../model/declarations.js';
import { ExitCode } from './cli-errors.js';
import type { CliContext, Run } from './cli-context.js';
import { MAX_SHARDS } from './cli-shard.js';
import { parseJsonArgument, positiveInteger, whereFromJson } from './cli-values.js';

/** `shards`: the shard plan of a job, for its tasks' `--plan`. */
export function addShardCommands(program: Command, run: Run): void {
  program
    .command('shards')
    .description(
      "cut an entity's scan into n tablet-aligned shards (mapper.planShards) and print them as one JSON array: the file a job's tasks read with --plan",
    )
    .argument('<entity>', 'entity class name or table id')
    .requiredOption('--shards <n>', `how many shards (1 to ${MAX_SHARDS}), one per task`, positiveInteger)
    .option('--where <json>', 'the key conditions the tasks will scan with (the same --where)', '{}')
    .action(
      run(async (ctx: CliContext, name: string, flags: { shards: number; where: string }) => {
        const { entity, schema } = await ctx.entity(name);
        const where = whereFromJson(schema, parseJsonArgument(flags.where, '--where'));
        const mapper = ctx.connect([entity]);
        const shards = await mapper.planShards(entity as Constructor<object>, {
          shards: flags.shards,
          where: where as never,
          ...ctx.call,
        });
        // Always JSON: the output is the plan file itself.
        ctx.io.stdout(`${JSON.stringify(shards, null, 2)}\n`);
        return ExitCode.Ok;
      }),
    );
}
