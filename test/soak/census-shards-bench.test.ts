import { describe, expect, it } from 'vitest';
import { runBench } from '../../bench/bench.js';
import type { ThroughputResult } from '../../bench/results.js';
import { emulatorHost } from '../support/emulator.js';

/**
 * The bench's `census-shards` workload (a census as a job of 4 command-line
 * processes against one process), at a small size: in the soak tier because
 * each run starts five processes that load the sources.
 */
describe('npm run bench -- --only census-shards (small, in process)', () => {
  it('runs the census as 4 tasks and as 1 process, both counting every row once', async () => {
    const results = await runBench({
      emulatorHost: emulatorHost(),
      scale: 'tiny',
      tablePrefix: 'bench-census',
      only: ['census-shards'],
      rows: 400,
      repeats: 1,
    });
    const [workload] = results.workloads as ThroughputResult[];
    expect(workload?.id).toBe('census-shards');
    expect(workload?.variants.map((v) => v.id)).toEqual(['census-4-tasks', 'census-1-task']);
    for (const variant of workload?.variants ?? []) {
      expect(variant.runs).toHaveLength(1);
      // The workload itself throws when the tasks' reports do not add up to the table's rows.
      expect(variant.median.rows).toBe(400);
      expect(variant.median.rowsPerSec).toBeGreaterThan(0);
    }
    expect(workload?.ratios.map((r) => r.id)).toEqual(['census-4-tasks/census-1-task']);
  }, 120_000);
});
