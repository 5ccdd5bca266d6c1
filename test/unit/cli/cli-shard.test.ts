import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CliUsageError } from '../../../src/cli/cli-errors.js';
import { MAX_SHARDS, shardOf, sourcesOfShard } from '../../../src/cli/cli-shard.js';
import { propertyRuns } from '../../support/property-runs.js';

describe('the shard of a task', () => {
  it('takes --shard first, then JOB_COMPLETION_INDEX with --shards, then the Cloud Run variables, else the whole job', () => {
    const cloud = { CLOUD_RUN_TASK_INDEX: '2', CLOUD_RUN_TASK_COUNT: '4' };
    expect(shardOf({ shard: '1/3' }, { ...cloud, JOB_COMPLETION_INDEX: '0' })).toEqual({ index: 1, count: 3 });
    expect(shardOf({ shards: '5' }, { ...cloud, JOB_COMPLETION_INDEX: '4' })).toEqual({ index: 4, count: 5 });
    expect(shardOf({}, cloud)).toEqual({ index: 2, count: 4 });
    expect(shardOf({}, { JOB_COMPLETION_INDEX: '3' })).toEqual({ index: 0, count: 1 });
    expect(shardOf({}, {})).toEqual({ index: 0, count: 1 });
    expect(shardOf({}, { CLOUD_RUN_TASK_INDEX: '', CLOUD_RUN_TASK_COUNT: '' })).toEqual({ index: 0, count: 1 });
  });

  it.each([
    [{ shard: '4/4' }, {}, /task index must be below the count.*from 0 to 3/],
    [{ shard: '0/0' }, {}, /task count must be from 1 to 10000/],
    [{ shard: `0/${MAX_SHARDS + 1}` }, {}, /task count must be from 1/],
    [{ shard: '-1/4' }, {}, /is not i\/n/],
    [{ shard: '1/4x' }, {}, /is not i\/n/],
    [{ shards: '4' }, {}, /--shards needs the task index/],
    [{ shards: 'four' }, { JOB_COMPLETION_INDEX: '0' }, /--shards four is not a whole number/],
    [{ shards: '4' }, { JOB_COMPLETION_INDEX: '4' }, /JOB_COMPLETION_INDEX 4 of --shards 4.*below the count/],
    [{}, { CLOUD_RUN_TASK_INDEX: '1' }, /must be set together/],
    [{}, { CLOUD_RUN_TASK_INDEX: '1.5', CLOUD_RUN_TASK_COUNT: '4' }, /CLOUD_RUN_TASK_INDEX 1.5 is not a whole number/],
  ])('refuses %o with %o as a usage error', (flags, env, message) => {
    expect(() => shardOf(flags, env)).toThrow(CliUsageError);
    expect(() => shardOf(flags, env)).toThrow(message);
  });

  it('cuts the ranges into n contiguous groups: each range in exactly one task, in order, sizes within one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 1, max: 40 }), (ranges, count) => {
        const items = Array.from({ length: ranges }, (_, i) => i);
        const parts = Array.from({ length: count }, (_, index) => sourcesOfShard(items, { index, count }));
        expect(parts.flat()).toEqual(items);
        const sizes = parts.map((p) => p.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      }),
      { numRuns: propertyRuns(500) },
    );
  });
});
