import { describe, expect, it } from 'vitest';
import { cli } from '../../integration/cli/run-cli.js';

// `key encode`, `key decode` and `plan` never connect: they run here without an emulator.
const examples = ['-e', 'examples/entities.ts'];

/** The column where each `  label  value` line of a text description puts its value. */
function valueColumns(stdout: string): number[] {
  return stdout
    .split('\n')
    .slice(1)
    .filter((line) => line.startsWith('  '))
    .map((line) => /^ {2}\S+ +/.exec(line)![0].length);
}

describe('key decode of a scan bound copied from plan', () => {
  it('says a start bound is a key prefix, with the parts it holds, and decodes them', async () => {
    const plan = await cli([...examples, '--json', 'plan', 'salted-events', '--where', '{"source":"web"}']);
    const start = (plan.json() as { ranges: { start: string; end: string }[] }).ranges[3]!.start.slice(1);
    expect(start).toBe('03#event#web#');

    const text = await cli([...examples, 'key', 'decode', 'salted-events', start]);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('a key prefix (a scan bound): 2 of 3 key parts');
    expect(text.stdout).not.toMatch(/different @KeyPart declarations/);
    expect(text.stdout).toMatch(/^ {2}bucket +3$/m);
    expect(text.stdout).toMatch(/^ {2}source +"web"$/m);

    const json = await cli([...examples, '--json', 'key', 'decode', 'salted-events', start]);
    expect(json.json()).toMatchObject({
      key: '03#event#web#',
      bucket: 3,
      values: { source: 'web' },
      prefix: { parts: 2, of: 3, after: false },
    });
  });

  it('says an end bound ending with the prefix-successor byte is the end of the keys that start with the prefix', async () => {
    const end = await cli([...examples, 'key', 'decode', 'salted-events', '03#event#web$']);
    expect(end.code).toBe(0);
    expect(end.stdout).toContain('a key prefix (a scan bound): 2 of 3 key parts');
    expect(end.stdout).toContain('03#event#web#');
    const json = await cli([...examples, '--json', 'key', 'decode', 'sensor-readings', 's1$']);
    expect(json.json()).toMatchObject({ values: { sensorId: 's1' }, prefix: { parts: 1, of: 2, after: true } });
  });

  it('takes a bound that starts with "-" (a negative salt bucket) as the key, not as an option', async () => {
    const result = await cli([...examples, '--json', 'key', 'decode', 'hot-users', '-3-u1-']);
    expect(result.stderr).toBe('');
    expect(result.json()).toMatchObject({ bucket: -3, values: { userId: 'u1' }, prefix: { parts: 1, of: 3 } });
  });

  it('still refuses a key that is neither a row key nor a key prefix of the entity', async () => {
    const bad = await cli([...examples, 'key', 'decode', 'sensor-readings', 's1#not-a-time']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/@KeyPart declarations/);
  });
});

describe('key decode output', () => {
  it('aligns the values of every label, however long the key part names are', async () => {
    const decoded = await cli([...examples, 'key', 'decode', 'salted-events', '03#event#web#2026-01-01T00:00:00.000Z']);
    expect(decoded.code).toBe(0);
    expect(decoded.stdout).toMatch(/^ {2}timestamp +"2026-01-01T00:00:00.000Z"$/m);
    expect(new Set(valueColumns(decoded.stdout)).size).toBe(1);
    const prefix = await cli([...examples, 'key', 'decode', 'salted-events', '03#event#web$']);
    expect(new Set(valueColumns(prefix.stdout)).size).toBe(1);
  });
});

describe('--table-prefix and entity names', () => {
  const prefixed = [...examples, '--table-prefix', 'cli_'];

  it('accepts the prefixed table id that sync prints, and shows it as the table', async () => {
    const result = await cli([...prefixed, '--json', 'key', 'decode', 'cli_salted-events', '03#event#web$']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ entity: 'Event', table: 'cli_salted-events' });
    const text = await cli([...prefixed, 'key', 'decode', 'cli_salted-events', '03#event#web$']);
    expect(text.stdout).toMatch(/^Event \(table cli_salted-events\)$/m);
    const encoded = await cli([
      ...prefixed,
      '--json',
      'key',
      'encode',
      'cli_hot-users',
      '{"userId":"u1","site":"w","at":0}',
    ]);
    expect(encoded.json()).toMatchObject({ table: 'cli_hot-users' });
  });

  it('still accepts the entity table id and the class name with a prefix, and the environment sets it too', async () => {
    for (const name of ['salted-events', 'Event']) {
      const result = await cli([...prefixed, '--json', 'key', 'decode', name, '03#event#web$']);
      expect(result.json()).toMatchObject({ table: 'cli_salted-events' });
    }
    const fromEnv = await cli([...examples, '--json', 'key', 'decode', 'cli_salted-events', '03#event#web$'], {
      BIGTABLE_TABLE_PREFIX: 'cli_',
    });
    expect(fromEnv.json()).toMatchObject({ table: 'cli_salted-events' });
  });

  it('without the prefix, says which flag would make a prefixed name known', async () => {
    const result = await cli([...examples, 'key', 'decode', 'cli_salted-events', '03#event#web$']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no entity named "cli_salted-events"');
    expect(result.stderr).toContain('--table-prefix cli_');
  });
});

describe('plan with a table prefix', () => {
  it('names the table as the mapper would read it, prefix included', async () => {
    const prefixed = await cli([...examples, '--table-prefix', 'cli_', '--json', 'plan', 'salted-events']);
    expect(prefixed.code).toBe(0);
    expect((prefixed.json() as { table: string }).table).toBe('cli_salted-events');
    const text = await cli([...examples, '--table-prefix', 'cli_', 'plan', 'cli_salted-events']);
    expect(text.stdout).toContain('cli_salted-events');
    const bare = await cli([...examples, '--json', 'plan', 'salted-events']);
    expect((bare.json() as { table: string }).table).toBe('salted-events');
  });
});
