import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compileEntity } from '../../../src/metadata/compile-entity.js';
import { eventEntity } from '../../../examples/salted-events/event.entity.js';
import { encodeRowKey } from '../../../src/key/physical-key.js';
import { OrderedReading } from './ordered.entities.js';
import { emulatorHost } from '../../support/emulator.js';
import { cli, repoRoot } from './run-cli.js';

const run = promisify(execFile);
const instance = `cli-${randomUUID().slice(0, 8)}`;
const connect = ['-e', 'examples/entities.ts', '--emulator-host', emulatorHost(), '--instance', instance];
const exampleTables = [
  'sensor-readings',
  'sensor-readings-sensors',
  'salted-events',
  'hot-users',
  'latest-events',
  'readings',
  'page_views',
];

describe('bigtable-mapper command line', () => {
  it('lists its commands from a clone, through the package bin', async () => {
    const { stdout } = await run('npx', ['bigtable-mapper', '--help'], { cwd: repoRoot });
    for (const command of ['sync', 'plan', 'key']) expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
  });

  it('sync --check reports drift with exit 1, sync applies it, and a second check passes', async () => {
    const before = await cli([...connect, '--json', 'sync', '--check']);
    expect(before.code).toBe(1);
    const report = before.json() as { drift: boolean; applied: boolean; changes: { kind: string; table: string }[] };
    expect(report.drift).toBe(true);
    expect(report.applied).toBe(false);
    expect(
      report.changes
        .filter((c) => c.kind === 'create-table')
        .map((c) => c.table)
        .sort(),
    ).toEqual([...exampleTables].sort());

    const applied = await cli([...connect, 'sync']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain(`${exampleTables.length} changes made:`);
    expect(applied.stdout).toMatch(/create-table\s+salted-events/);

    const after = await cli([...connect, '--json', 'sync', '--check']);
    expect(after.code).toBe(0);
    expect(after.json()).toMatchObject({ drift: false, changes: [] });
    const text = await cli([...connect, 'sync', '--dry-run']);
    expect(text.stdout).toContain('nothing to change');
    expect(applied.stdout).not.toContain('(s)');
  });

  it('--table-prefix syncs the prefixed tables, as a mapper with tablePrefix would', async () => {
    const result = await cli([...connect, '--table-prefix', 'staging_', '--json', 'sync', '--dry-run']);
    expect(result.code).toBe(0);
    const tables = (result.json() as { changes: { table: string }[] }).changes.map((c) => c.table);
    expect(tables.sort()).toEqual(exampleTables.map((t) => `staging_${t}`).sort());
    const dryRun = await cli([...connect, '--table-prefix', 'staging_', 'sync', '--dry-run']);
    expect(dryRun.stdout).toContain(`${exampleTables.length} changes would be made:`);
    const one = await cli([
      '-e',
      'test/integration/cli/resalt.entities.ts',
      '--emulator-host',
      emulatorHost(),
      '--instance',
      instance,
      '--table-prefix',
      'single_',
      'sync',
      '--dry-run',
    ]);
    expect(one.stdout).toContain('1 change would be made:');
    const bad = await cli([...connect, '--table-prefix', 'no spaces', 'sync', '--dry-run']);
    expect(bad.code).toBe(2);
  });

  it('key encode and key decode turn key values and physical keys into each other, salt bucket included', async () => {
    const values = { source: 'web', timestamp: '2026-01-01T00:00:00.000Z' };
    const schema = compileEntity(eventEntity('salted-events'));
    const bucket = schema.key.salt!.bucketOf('event#web#2026-01-01T00:00:00.000Z');

    const encoded = await cli([
      '-e',
      'examples/entities.ts',
      '--json',
      'key',
      'encode',
      'salted-events',
      JSON.stringify(values),
    ]);
    expect(encoded.code).toBe(0);
    const e = encoded.json() as { key: string; hex: string; bucket: number; values: unknown };
    expect(e.bucket).toBe(bucket);
    expect(e.key).toBe(`${String(bucket).padStart(2, '0')}#event#web#2026-01-01T00:00:00.000Z`);
    expect(Buffer.from(e.hex, 'hex').toString()).toBe(e.key);

    const decoded = await cli(['-e', 'examples/entities.ts', '--json', 'key', 'decode', 'salted-events', e.key]);
    expect(decoded.json()).toEqual(e);
    const fromHex = await cli([
      '-e',
      'examples/entities.ts',
      '--json',
      'key',
      'decode',
      'salted-events',
      e.hex,
      '--format',
      'hex',
    ]);
    expect(fromHex.json()).toEqual(e);
    const text = await cli(['-e', 'examples/entities.ts', 'key', 'decode', 'Event', e.key]);
    expect(text.stdout).toMatch(new RegExp(`^  bucket +${bucket}$`, 'm'));
  });

  it('key encode and key decode handle binary ordered-code keys, printed with \\xNN escapes', async () => {
    const module = ['-e', 'test/integration/cli/ordered.entities.ts', '--json', 'key'];
    const values = { sensorId: 's1', at: '2026-01-01T00:00:00.000Z' };
    const encoded = await cli([...module, 'encode', 'OrderedReading', JSON.stringify(values)]);
    expect(encoded.code).toBe(0);
    const e = encoded.json() as { key: string; hex: string; bucket: number; values: unknown };
    const schema = compileEntity(OrderedReading);
    expect(e.hex).toBe(encodeRowKey(schema, { sensorId: 's1', at: new Date(values.at) }).key.toString('hex'));
    expect(e.key).toMatch(/\\x[0-9a-f]{2}/);
    expect(e.bucket).toBeGreaterThanOrEqual(0);
    expect(e.bucket).toBeLessThan(4);
    expect(e.values).toEqual(values);
    const decoded = await cli([...module, 'decode', 'OrderedReading', e.key]);
    expect(decoded.json()).toEqual(e);
  });

  it('key encode and key decode read back the bytes, float and boolean values they print', async () => {
    const module = ['-e', 'test/integration/cli/ordered.entities.ts', '--json', 'key'];
    const values = { digest: '00ff10', score: -2.5, active: true };
    const encoded = await cli([...module, 'encode', 'TypedKeys', JSON.stringify(values)]);
    expect(encoded.code).toBe(0);
    const e = encoded.json() as { key: string; values: unknown };
    expect(e.values).toEqual(values);
    const again = await cli([...module, 'encode', 'TypedKeys', JSON.stringify(e.values)]);
    expect(again.json()).toEqual(e);
    expect((await cli([...module, 'decode', 'TypedKeys', e.key])).json()).toEqual(e);
  });

  it('plan shows one readable range per salt bucket', async () => {
    const result = await cli([
      '-e',
      'examples/entities.ts',
      '--json',
      'plan',
      'salted-events',
      '--where',
      '{"source":"web"}',
    ]);
    expect(result.code).toBe(0);
    const plan = result.json() as { table: string; ranges: { bucket: string; start: string; end: string }[] };
    expect(plan.table).toBe('salted-events');
    expect(plan.ranges).toHaveLength(10);
    expect(plan.ranges[3]).toEqual({ bucket: '03#', layout: 'salted', start: '[03#event#web#', end: '03#event#web$)' });

    const ranged = await cli([
      '-e',
      'examples/entities.ts',
      'plan',
      'sensor-readings',
      '--where',
      '{"sensorId":"s1","ts":{"gte":"2026-01-01T00:00:00Z","lt":"2026-01-02T00:00:00Z"}}',
    ]);
    expect(ranged.stdout).toContain('[s1#2026-01-01T00:00:00.000Z  s1#2026-01-02T00:00:00.000Z)');
  });

  it('plan shows a reverse scan with --order key-desc, and refuses an unknown order or a limit that is no number', async () => {
    const result = await cli(['-e', 'examples/entities.ts', '--json', 'plan', 'salted-events', '--order', 'key-desc']);
    expect(result.code).toBe(0);
    expect((result.json() as { order: string }).order).toBe('key-desc');
    const bad = await cli(['-e', 'examples/entities.ts', 'plan', 'salted-events', '--order', 'backwards']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/key, key-desc, none/);
    const nan = await cli(['-e', 'examples/entities.ts', 'plan', 'salted-events', '--limit', 'abc']);
    expect(nan.code).toBe(2);
  });

  it('exits 2 with a fix for bad usage and bad input, and 3 when Bigtable cannot be reached', async () => {
    const unknown = await cli(['-e', 'examples/entities.ts', 'plan', 'Nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no entity named "Nope". Fix: use one of: ');

    const ambiguous = await cli(['-e', 'examples/entities.ts', 'plan', 'Reading']);
    expect(ambiguous.stderr).toContain('names more than one entity');

    const badJson = await cli(['-e', 'examples/entities.ts', '--json', 'key', 'encode', 'Event', '{source:']);
    expect(badJson.code).toBe(2);
    expect(badJson.json()).toMatchObject({ exitCode: 2, error: { name: 'CliUsageError' } });

    const badValue = await cli([
      '-e',
      'examples/entities.ts',
      'key',
      'encode',
      'hot-users',
      '{"userId":5,"site":"w","at":0}',
    ]);
    expect(badValue.code).toBe(2);
    expect(badValue.stderr).toContain('Activity.userId');

    const noInstance = await cli(['-e', 'examples/entities.ts', 'sync'], { BIGTABLE_EMULATOR_HOST: emulatorHost() });
    expect(noInstance.code).toBe(2);
    expect(noInstance.stderr).toContain('--instance');

    const noEntities = await cli(['key', 'encode', 'Event', '{}']);
    expect(noEntities.code).toBe(2);
    expect(noEntities.stderr).toContain('--entities');

    const unknownCommand = await cli(['frobnicate']);
    expect(unknownCommand.code).toBe(2);

    const unreachable = await cli([
      '-e',
      'examples/entities.ts',
      '--timeout-ms',
      '2000',
      '--emulator-host',
      '127.0.0.1:1',
      '--instance',
      'x',
      'sync',
    ]);
    expect(unreachable.code).toBe(3);
  });
});
