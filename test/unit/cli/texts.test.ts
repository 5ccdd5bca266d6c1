import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../../integration/cli/run-cli.js';

const examples = ['-e', 'examples/entities.ts'];
const seed = ['-e', 'test/unit/lint/seed-001-entities.ts'];
const commands = [[], ['sync'], ['plan'], ['key', 'encode'], ['key', 'decode'], ['lint'], ['buckets'], ['census']];
const more = [['simulate'], ['heatmap'], ['resalt']];
const work = mkdtempSync(join(tmpdir(), 'bigtable-mapper-cli-texts-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('texts the command line prints', () => {
  it('names principles, never a "seed", in the help of every command and in lint output', async () => {
    for (const command of [...commands, ...more]) {
      const help = await cli([...command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout, command.join(' ')).not.toMatch(/seed 0/i);
    }
    expect((await cli(['buckets', '--help'])).stdout).toMatch(/bucket counts/);
    const lint = await cli([...seed, 'lint', 'TimeFirstReading']);
    expect(lint.stdout).not.toMatch(/seed 0/i);
    expect(lint.stdout).toMatch(/principle: Entity id first/);
  });

  it('writes singular and plural counts as words, not "(s)"', async () => {
    const one = await cli([...seed, 'lint', 'TimeFirstReading']);
    expect(one.stdout).toContain('1 entity checked: 1 error, 0 warnings');
    const two = await cli([...seed, 'lint', 'TimeFirstReading', 'SensorFirstReading']);
    expect(two.stdout).toContain('2 entities checked: 1 error, 0 warnings');
    const none = await cli([...seed, 'lint', 'SensorFirstReading']);
    expect(none.stdout).toContain('1 entity checked: no findings');
    const ten = await cli([...examples, 'plan', 'salted-events']);
    expect(ten.stdout).toMatch(/^table salted-events: 10 ranges, order key$/m);
    const single = await cli([...examples, 'plan', 'sensor-readings', '--where', '{"sensorId":"s1"}']);
    expect(single.stdout).toMatch(/^table sensor-readings: 1 range, order key$/m);
    for (const run of [one, two, none, ten, single]) expect(run.stdout).not.toContain('(s)');
  });

  it('says where a JSON input file goes wrong and what trails its document, with no advice on shell quoting', async () => {
    const file = join(work, 'census.json');
    const document = JSON.stringify({ timeLabels: ['t'], keyRanges: [{ label: 'a', start: 'a' }], counts: [[1]] });
    writeFileSync(file, `${document}\nheatmap written to /tmp/x.svg\n`);
    const result = await cli(['heatmap', file, '--out', join(work, 'x.svg')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`<input> ${file}`);
    expect(result.stderr).toContain('line 2, column 1');
    expect(result.stderr).toContain('"heatmap written to /tmp/x.svg"');
    expect(result.stderr).not.toMatch(/shell|quote/i);

    const broken = join(work, 'broken.json');
    writeFileSync(broken, '{\n  "timeLabels": [\n}');
    const syntax = await cli(['heatmap', broken, '--out', join(work, 'x.svg')]);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toContain('line 3, column 1');
    expect(syntax.stderr).not.toMatch(/shell|quote/i);

    const workload = await cli([...seed, 'simulate', 'TimeFirstReading', '--workload', file]);
    expect(workload.code).toBe(2);
    expect(workload.stderr).toContain(`--workload ${file}`);
    expect(workload.stderr).not.toMatch(/shell|quote/i);

    const argument = await cli([...examples, 'key', 'encode', 'Event', '{"source":"web"} x']);
    expect(argument.code).toBe(2);
    expect(argument.stderr).toMatch(/quote it for the shell/);
  });
});
