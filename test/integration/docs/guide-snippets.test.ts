import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url).pathname;
const run = promisify(execFile);

/** A fenced block of a guide marked ```ts file=NAME: a whole program that must compile. */
interface Snippet {
  readonly guide: string;
  readonly file: string;
  readonly code: string;
}

function snippets(): Snippet[] {
  const found: Snippet[] = [];
  for (const guide of readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md'))) {
    const text = readFileSync(join(ROOT, 'docs', guide), 'utf8');
    for (const match of text.matchAll(/^```ts file=(\S+)\n([\s\S]*?)^```$/gm))
      found.push({ guide, file: match[1] as string, code: match[2] as string });
  }
  return found;
}

/** The snippet with the package's imports pointed at this checkout's sources. */
function againstSources(code: string, dir: string): string {
  const src = (entry: string) => JSON.stringify(`./${relative(dir, join(ROOT, 'src', entry))}`);
  return code
    .replaceAll("from 'bigtable-mapper/nest/terminus'", `from ${src('nest/terminus.js')}`)
    .replaceAll("from 'bigtable-mapper/nest'", `from ${src('nest/index.js')}`)
    .replaceAll("from 'bigtable-mapper/testing'", `from ${src('testing/index.js')}`)
    .replaceAll("from 'bigtable-mapper/tools'", `from ${src('tools.js')}`)
    .replaceAll("from 'bigtable-mapper/express'", `from ${src('express.js')}`)
    .replaceAll("from 'bigtable-mapper/json'", `from ${src('json.js')}`)
    .replaceAll("from 'bigtable-mapper/driver'", `from ${src('driver-api.js')}`)
    .replaceAll("from 'bigtable-mapper'", `from ${src('index.js')}`);
}

describe('guide snippets marked file=', () => {
  // Inside test/ so the project's tsconfig and node_modules apply; git-ignored.
  const dir = mkdtempSync(join(ROOT, 'test/tmp-guide-snippets-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const all = snippets();

  it('the NestJS and Express guide holds a complete NestJS app and an Express app', () => {
    expect(all.filter((s) => s.guide === 'nestjs-and-express.md').map((s) => s.file)).toEqual([
      'nest-app.ts',
      'express-app.ts',
    ]);
    const nest = all.find((s) => s.file === 'nest-app.ts')!.code;
    for (const part of [
      '@Entity(',
      'BigtableModule.forRoot(',
      'emulatorHost',
      'BigtableMapperExceptionFilter',
      'BigtableHealthIndicator',
    ])
      expect(nest).toContain(part);
  });

  it('type-check against the sources', async () => {
    const names = new Set<string>();
    for (const snippet of all) {
      expect(names.has(snippet.file), `${snippet.file} is used twice`).toBe(false);
      names.add(snippet.file);
      writeFileSync(join(dir, snippet.file), againstSources(snippet.code, dir));
    }
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ extends: '../../tsconfig.json', include: [...names], exclude: [] }),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], {
      cwd: ROOT,
      timeout: 120_000,
    }).then(
      () => '',
      (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}${error.stderr ?? ''}` || 'tsc failed',
    );
    expect(result).toBe('');
  }, 150_000);
});
