import { describe, expect, it } from 'vitest';
import { runDemo } from '../../../examples/demo.js';
import { parseDemoArgs } from '../../../examples/shared/demo-args.js';
import { BigtableMapper } from '../../../src/index.js';
import { emulatorHost, testInstanceId } from '../../support/emulator.js';

describe('demo', () => {
  it('runs the four scenarios in-process and every fact holds; tables are deleted', async () => {
    const lines: string[] = [];
    const result = await runDemo({
      connection: { emulatorHost: emulatorHost(), instance: testInstanceId },
      size: 'small',
      log: (l) => lines.push(l),
    });
    expect(result.reports.map((r) => r.scenario)).toEqual([
      'sensor-readings',
      'salted-events',
      'hot-users',
      'latest-events',
    ]);
    expect(result.reports.flatMap((r) => r.facts).filter((f) => !f.ok)).toEqual([]);
    expect(result.passed).toBe(true);
    expect(lines.filter((l) => l.trimStart().startsWith('✗'))).toEqual([]);
    expect(lines.at(-1)).toMatch(/^All \d+ facts hold/);
    const mapper = new BigtableMapper({ emulatorHost: emulatorHost(), instance: testInstanceId });
    try {
      const tables = new Set(await mapper.driver.listTables());
      expect(result.reports.flatMap((r) => r.tables).filter((t) => tables.has(t))).toEqual([]);
    } finally {
      await mapper.close();
    }
  });

  it('parses its command line', () => {
    expect(parseDemoArgs([], {})).toEqual({ kind: 'run', keep: false, target: { kind: 'emulator' } });
    expect(parseDemoArgs(['--help'], {})).toEqual({ kind: 'help' });
    expect(parseDemoArgs(['--project', 'p', '--instance', 'i', '--keep'], {})).toEqual({
      kind: 'run',
      keep: true,
      target: { kind: 'instance', projectId: 'p', instance: 'i' },
    });
    expect(parseDemoArgs([], { GOOGLE_CLOUD_PROJECT: 'p', BIGTABLE_INSTANCE: 'i' })).toEqual({
      kind: 'run',
      keep: false,
      target: { kind: 'instance', projectId: 'p', instance: 'i' },
    });
    expect(
      parseDemoArgs([], { GOOGLE_CLOUD_PROJECT: 'p', BIGTABLE_INSTANCE: 'i', BIGTABLE_EMULATOR_HOST: '127.0.0.1:1' }),
    ).toEqual({ kind: 'run', keep: false, target: { kind: 'emulator' } });
    expect(parseDemoArgs(['--project', 'p'], {}).kind).toBe('error');
    expect(parseDemoArgs(['--project', 'p', '--instance', 'i'], { BIGTABLE_EMULATOR_HOST: '127.0.0.1:1' }).kind).toBe(
      'error',
    );
    expect(parseDemoArgs(['--bogus'], {}).kind).toBe('error');
  });
});
