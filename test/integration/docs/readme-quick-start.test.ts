import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { emulatorHost } from '../../support/emulator.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const run = promisify(execFile);

/** The ```ts block under "## Quick start", with the package imports pointed at this checkout's sources. */
function quickStartProgram(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Quick start'));
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (code === undefined) throw new Error('README has no ```ts block under "## Quick start"');
  return code
    .replace("from 'bigtable-mapper/testing'", `from ${JSON.stringify(join(ROOT, 'src/testing/index.ts'))}`)
    .replace("from 'bigtable-mapper'", `from ${JSON.stringify(join(ROOT, 'src/index.ts'))}`);
}

describe('README quick start', () => {
  // Inside test/ so tsx applies the project's tsconfig (legacy decorators); git-ignored.
  const dir = mkdtempSync(join(ROOT, 'test/tmp-quick-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs as written and prints the salted key and the last ten readings', async () => {
    const file = join(dir, 'quick-start.ts');
    writeFileSync(file, quickStartProgram());
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', file], {
      cwd: ROOT,
      env: { ...process.env, BIGTABLE_EMULATOR_HOST: emulatorHost() },
      timeout: 60_000,
    });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^0[0-7]#s1#2024-01-01T00:00:00\.000Z$/);
    expect(lines.slice(1)).toHaveLength(10);
    expect(lines[1]).toBe('2024-01-01T00:50:00.000Z 25');
    expect(lines[10]).toBe('2024-01-01T00:59:00.000Z 25.9');
  });
});
