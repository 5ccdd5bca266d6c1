import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BigtableMapper } from '../../../src/index.js';
import { emulatorHost } from '../../support/emulator.js';
import { startFaultProxy, type FaultProxy } from '../../support/fault-proxy.js';
import { JobVisit } from '../cli/jobs.entities.js';
import { cli } from '../cli/run-cli.js';

/**
 * A task of a 4-task census killed mid-shard: its connection stalls after
 * its first rows and `--timeout-ms` ends it, as a job runner's timeout would.
 * It reports nothing usable (exit code and an error, no census), the merge
 * refuses the set without it, and running that one task again completes the
 * merge with the same totals as one process.
 */

const instance = `cli-task-rerun-${randomUUID().slice(0, 8)}`;
const dir = mkdtempSync(join(tmpdir(), 'cli-task-rerun-'));
const ROWS = 400;
let proxy: FaultProxy;
let mapper: BigtableMapper;

const census = (host: string, env: Record<string, string>, extra: string[] = []) =>
  cli(
    [
      '-e',
      'test/integration/cli/jobs.entities.ts',
      '--emulator-host',
      host,
      '--instance',
      instance,
      ...extra,
      '--json',
      'census',
      'JobVisit',
    ],
    env,
  );
const task = (index: number): Record<string, string> => ({
  CLOUD_RUN_TASK_INDEX: String(index),
  CLOUD_RUN_TASK_COUNT: '4',
});
const withoutTiming = (report: unknown): unknown => {
  const { durationMs: _, ...rest } = report as { durationMs: number };
  return rest;
};

beforeAll(async () => {
  proxy = await startFaultProxy(emulatorHost());
  mapper = new BigtableMapper({ emulatorHost: emulatorHost(), instance, entities: [JobVisit] });
  await mapper.sync();
  await mapper
    .getRepository(JobVisit)
    .saveMany(
      Array.from({ length: ROWS }, (_, i) =>
        Object.assign(new JobVisit(), { site: `s${i % 3}`, seq: i, page: `/page/${'x'.repeat(300)}/${i}` }),
      ),
    );
});

afterAll(async () => {
  proxy.pass();
  await mapper.close();
  await proxy.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a census task killed mid-shard and run again', () => {
  it('fails without a report, and its re-run completes the merge with the one-process totals', async () => {
    const single = await census(emulatorHost(), {});
    expect(single.code).toBe(0);
    const files: string[] = [];
    for (const index of [0, 1, 3]) {
      const run = await census(emulatorHost(), task(index));
      expect(run.code).toBe(0);
      files.push(join(dir, `census-${index}.json`));
      writeFileSync(files.at(-1)!, run.stdout);
    }

    // Task 2 reads through the proxy, which stops answering after its first rows.
    proxy.faultAfter({ bytes: 4_000, fault: 'stall', direction: 'toClient' });
    const killed = await census(proxy.host, task(2), ['--timeout-ms', '1500']);
    proxy.pass();
    expect(killed.code).not.toBe(0);
    expect(killed.json()).toMatchObject({ error: { code: 'DEADLINE_EXCEEDED' } });
    writeFileSync(join(dir, 'census-2-killed.json'), killed.stdout);
    const refused = await cli(['census', 'merge', ...files, join(dir, 'census-2-killed.json')]);
    expect(refused.code).not.toBe(0);

    const rerun = await census(proxy.host, task(2));
    expect(rerun.code).toBe(0);
    writeFileSync(join(dir, 'census-2.json'), rerun.stdout);
    const merged = await cli(['--json', 'census', 'merge', ...files, join(dir, 'census-2.json')]);
    expect(merged.code).toBe(0);
    expect(withoutTiming(merged.json())).toEqual(withoutTiming(single.json()));
    expect((merged.json() as { rows: number }).rows).toBe(ROWS);
  });
});
