import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { shardOf } from '../../../src/cli/cli-shard.js';

const guide = readFileSync(new URL('../../../docs/scale-out.md', import.meta.url), 'utf8');
const blocks = [...guide.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => parse(m[1]!) as Manifest);

interface Container {
  image: string;
  command: string[];
  args: string[];
  env: { name: string; value: string }[];
}
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: Record<string, unknown> & { template: { spec: Record<string, unknown> } };
}

/** The command line a container runs, after `npx bigtable-mapper`, without the shell's redirection. */
function cliArgs(container: Container): string[] {
  expect(container.command).toEqual(['/bin/sh', '-c']);
  const script = container.args.join(' ');
  expect(script).toMatch(/^npx bigtable-mapper /);
  return script
    .replace(/^npx bigtable-mapper /, '')
    .replace(/\s*>\s*\S+$/, '')
    .split(/\s+/);
}

function checkContainer(container: Container, command: 'census' | 'export'): string[] {
  expect(container.image).toMatch(/^[\w.-]+\/[\w./-]+:[\w.-]+$/);
  const env = new Map(container.env.map((e) => [e.name, e.value]));
  for (const name of ['BIGTABLE_MAPPER_ENTITIES', 'BIGTABLE_PROJECT', 'BIGTABLE_INSTANCE', 'BIGTABLE_APP_PROFILE'])
    expect(env.get(name), name).toMatch(/\S/);
  const args = cliArgs(container);
  expect(args.slice(0, 3)).toEqual(['--json', command, 'Event']);
  return args;
}

describe('the job definitions of docs/scale-out.md', () => {
  it('are four valid YAML documents: a Cloud Run Job and a Kubernetes Indexed Job for census and for export', () => {
    expect(blocks.map((b) => `${b.kind} ${b.metadata.name}`)).toEqual([
      'Job census-events',
      'Job export-events',
      'Job census-events',
      'Job export-events',
    ]);
  });

  it('Cloud Run Jobs: taskCount and parallelism, and the task takes its shard from the Cloud Run environment', () => {
    for (const [i, command] of [
      [0, 'census'],
      [1, 'export'],
    ] as const) {
      const job = blocks[i]!;
      expect(job.apiVersion).toBe('run.googleapis.com/v1');
      const execution = job.spec.template.spec as {
        taskCount: number;
        parallelism: number;
        template: { spec: { maxRetries: number; containers: Container[] } };
      };
      expect(execution.taskCount).toBe(8);
      expect(execution.parallelism).toBeGreaterThanOrEqual(1);
      expect(execution.parallelism).toBeLessThanOrEqual(execution.taskCount);
      expect(execution.template.spec.maxRetries).toBeGreaterThanOrEqual(1);
      const [container] = execution.template.spec.containers;
      const args = checkContainer(container!, command);
      expect(args.some((a) => a.startsWith('--shard'))).toBe(false);
      const task = { CLOUD_RUN_TASK_INDEX: '7', CLOUD_RUN_TASK_COUNT: String(execution.taskCount) };
      expect(shardOf({}, task)).toEqual({ index: 7, count: 8 });
    }
  });

  it('Kubernetes Indexed Jobs: completions equal --shards, each index retried alone', () => {
    for (const [i, command] of [
      [2, 'census'],
      [3, 'export'],
    ] as const) {
      const job = blocks[i]!;
      expect(job.apiVersion).toBe('batch/v1');
      const spec = job.spec as unknown as {
        completionMode: string;
        completions: number;
        parallelism: number;
        backoffLimitPerIndex: number;
        template: { spec: { restartPolicy: string; containers: Container[] } };
      };
      expect(spec.completionMode).toBe('Indexed');
      expect(spec.parallelism).toBeLessThanOrEqual(spec.completions);
      expect(spec.backoffLimitPerIndex).toBeGreaterThanOrEqual(1);
      expect(spec.template.spec.restartPolicy).toBe('Never');
      const args = checkContainer(spec.template.spec.containers[0]!, command);
      const shards = args[args.indexOf('--shards') + 1]!;
      expect(Number(shards)).toBe(spec.completions);
      expect(shardOf({ shards }, { JOB_COMPLETION_INDEX: String(spec.completions - 1) })).toEqual({
        index: spec.completions - 1,
        count: spec.completions,
      });
    }
  });
});
