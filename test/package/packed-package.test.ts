import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packLibrary, tarballFiles, type PackedLibrary } from '../../scripts/pack.js';
import { emulatorHost } from '../support/emulator.js';
import { addConsumer, createConsumerWorkspace, repositoryModules } from './consumer-workspace.js';

// CI packs once and passes the tarball in; NestJS of another major can be put first for the consumers.
const givenTarball = process.env['BIGTABLE_MAPPER_TARBALL'];
const givenNestModules = process.env['BIGTABLE_MAPPER_NEST_MODULES'];
const run = promisify(execFile);

const nest = JSON.parse(
  readFileSync(join(givenNestModules ?? repositoryModules, '@nestjs', 'core', 'package.json'), 'utf8'),
) as { version: string; type?: string };
// node16 cannot import an ES module from CommonJS, so an app on an ES-module-only NestJS (12) compiles its
// CommonJS with nodenext, which types require() of ES modules (TypeScript 5.8+).
const cjsModule = nest.type === 'module' ? 'nodenext' : 'node16';

let work: string;
let packed: PackedLibrary;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'bigtable-mapper-package-'));
  packed =
    givenTarball === undefined
      ? packLibrary(join(work, 'pack'))
      : { tarball: givenTarball, files: tarballFiles(givenTarball) };
}, 300_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

function packedText(path: string): string {
  return execFileSync('tar', ['-xOzf', packed.tarball, `package/${path}`], { encoding: 'utf8' });
}

/** Relative link targets in a Markdown file (inline and reference links, outside code blocks), anchors removed. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] as string),
    ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1] as string),
  ];
  return targets
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => decodeURIComponent(target.replace(/#.*$/, '')));
}

/** Every file path an `exports`, `main`, `module`, `types` or `typesVersions` entry points at. */
function declaredTargets(manifest: Record<string, unknown>): string[] {
  const targets: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') targets.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect(manifest['exports']);
  collect(manifest['typesVersions']);
  collect([manifest['main'], manifest['module'], manifest['types']]);
  return targets.map((target) => posix.normalize(target));
}

describe('the packed tarball', () => {
  it('holds the ESM and CommonJS builds with declarations beside each, the license, the README and the guides', () => {
    const { files } = packed;
    for (const entry of ['index', 'driver-api', 'tools', 'express', 'json', 'testing/index', 'nest/index'])
      for (const format of ['esm', 'cjs'])
        for (const file of [`${entry}.js`, `${entry}.d.ts`]) expect(files).toContain(`dist/${format}/${file}`);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
    expect(JSON.parse(packedText('dist/esm/package.json'))).toEqual({ type: 'module' });
    expect(JSON.parse(packedText('dist/cjs/package.json'))).toEqual({ type: 'commonjs' });
    expect(packedText('LICENSE')).toMatch(
      /Apache License\s+Version 2\.0[\s\S]*Copyright \d{4} the bigtable-mapper authors/,
    );

    const modules = (format: string) =>
      files
        .filter((f) => f.startsWith(`dist/${format}/`) && !f.startsWith('dist/esm/cli/') && f.endsWith('.js'))
        .map((f) => f.slice(`dist/${format}/`.length));
    expect(modules('cjs')).toEqual(modules('esm'));
    const untyped = files.filter((f) => f.endsWith('.js') && !files.includes(f.replace(/\.js$/, '.d.ts')));
    expect(untyped).toEqual([]);
  });

  it('holds nothing else: no sources, tests, bench, examples, source maps (their sources are not shipped) or node_modules', () => {
    const shipped = (file: string) =>
      ['LICENSE', 'README.md', 'package.json', 'bin/bigtable-mapper.mjs'].includes(file) ||
      /^docs\/[^/]+\.md$/.test(file) ||
      /^docs\/images\/[^/]+\.png$/.test(file) ||
      (/^dist\/(esm|cjs)\//.test(file) && /(\.d\.ts|\.js|\/package\.json)$/.test(file));
    expect(packed.files.filter((file) => !shipped(file))).toEqual([]);
    expect(packed.files.filter((file) => /\.map$|(^|\/)(node_modules|test|bench|src)\//.test(file))).toEqual([]);
  });

  it('has a file for every entry point package.json declares', () => {
    const manifest = JSON.parse(packedText('package.json')) as Record<string, unknown>;
    const targets = declaredTargets(manifest);
    expect(targets.length).toBeGreaterThan(12);
    expect(targets.filter((target) => !packed.files.includes(target))).toEqual([]);
  });

  it('resolves every relative link in README.md and the shipped guides to a file in the tarball', () => {
    const markdown = packed.files.filter((file) => file.endsWith('.md'));
    expect(markdown).toContain('README.md');
    const broken: string[] = [];
    let checked = 0;
    for (const file of markdown) {
      for (const link of relativeLinks(packedText(file))) {
        checked += 1;
        const target = posix.normalize(posix.join(posix.dirname(file), link));
        if (!packed.files.includes(target)) broken.push(`${file} → ${link}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });
});

describe('consumer projects compiled against the tarball and run on the emulator', () => {
  let workspace: string;

  beforeAll(() => {
    workspace = createConsumerWorkspace(join(work, 'consumers'), packed.tarball, givenNestModules);
  });

  async function compileAndRun(
    fixture: string,
    tscFlags: string[] = [],
  ): Promise<{ emitted: string; output: unknown }> {
    const dir = addConsumer(workspace, fixture);
    const tsc = join(workspace, 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [tsc, '-p', dir, ...tscFlags]).catch((err: { stdout?: string; message: string }) => {
      throw new Error(`tsc failed for the ${fixture} consumer:\n${err.stdout ?? err.message}`);
    });
    const main = join(dir, 'dist', 'main.js');
    const { stdout } = await run(process.execPath, [main], {
      cwd: dirname(main),
      env: { ...process.env, BIGTABLE_EMULATOR_HOST: emulatorHost(), METADATA_SERVER_DETECTION: 'none' },
      timeout: 60_000,
    }).catch((err: { stderr?: string; message: string }) => {
      throw new Error(`the ${fixture} consumer failed:\n${err.stderr ?? err.message}`);
    });
    return { emitted: readFileSync(main, 'utf8'), output: JSON.parse(stdout.trim().split('\n').at(-1) ?? '') };
  }

  it('ESM (module: nodenext) imports every entry point', { timeout: 120_000 }, async () => {
    const { emitted, output } = await compileAndRun('esm');
    for (const entry of ['driver', 'express', 'json', 'nest', 'testing', 'tools'])
      expect(emitted).toMatch(new RegExp(`^import .* from 'bigtable-mapper/${entry}';$`, 'm'));
    expect(output).toEqual({
      text: 'saved from ESM',
      nestModule: 'function',
      lintRules: expect.arrayContaining(['no-gc-rule']),
      missing: 404,
      createRequired: ['id'],
      read: { id: 'n1', text: 'saved from ESM' },
    });
  });

  it(
    `CommonJS (module: ${cjsModule} in a CommonJS package) requires every entry point`,
    { timeout: 120_000 },
    async () => {
      const { emitted, output } = await compileAndRun('cjs', ['--module', cjsModule, '--moduleResolution', cjsModule]);
      for (const entry of ['driver', 'express', 'json', 'nest', 'testing', 'tools'])
        expect(emitted).toMatch(new RegExp(`require\\("bigtable-mapper/${entry}"\\)`));
      expect(output).toEqual({
        text: 'saved from CommonJS',
        nestModule: 'function',
        lintRules: expect.arrayContaining(['no-gc-rule']),
        missing: 404,
        createRequired: ['id'],
        read: { id: 'n1', text: 'saved from CommonJS' },
      });
    },
  );

  it(
    `NestJS ${nest.version} starter layout (module: commonjs, moduleResolution: node10) injects a repository`,
    { timeout: 120_000 },
    async () => {
      const { emitted, output } = await compileAndRun('nest');
      expect(emitted).toMatch(/require\("bigtable-mapper\/testing"\)/);
      expect(output).toEqual({ text: 'saved from NestJS', nestModule: 'function' });
    },
  );

  it("ships a command line that loads a CommonJS app's compiled entities", { timeout: 120_000 }, async () => {
    const dir = addConsumer(workspace, 'cli');
    const tsc = join(workspace, 'node_modules', 'typescript', 'bin', 'tsc');
    await run(process.execPath, [tsc, '-p', dir]);
    const bin = join(workspace, 'node_modules', 'bigtable-mapper', 'bin', 'bigtable-mapper.mjs');
    const help = await run(process.execPath, [bin, '--help'], { cwd: dir });
    expect(help.stdout).toMatch(/^ {2}sync\b/m);
    const { stdout } = await run(
      process.execPath,
      [bin, '-e', 'dist/entities.js', '--json', 'key', 'encode', 'Note', '{"id":"n1"}'],
      {
        cwd: dir,
      },
    );
    expect(JSON.parse(stdout)).toMatchObject({ entity: 'Note', table: 'cli-notes', values: { id: 'n1' } });
    expect((JSON.parse(stdout) as { key: string }).key).toMatch(/^\d\d#n1$/);
  });
});
