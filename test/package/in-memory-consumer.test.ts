import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packLibrary } from '../../scripts/pack.js';
import { repositoryModules } from './consumer-workspace.js';

// The package tier's global setup packs once and passes the tarball in; run alone, the test packs it itself.
const givenTarball = process.env['BIGTABLE_MAPPER_TARBALL'];
const run = promisify(execFile);

let work: string;
let tarball: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'bigtable-mapper-in-memory-'));
  tarball = givenTarball !== undefined && givenTarball !== '' ? givenTarball : packLibrary(join(work, 'pack')).tarball;
}, 300_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

/**
 * An app that installed only the tarball: `node_modules` holds the unpacked
 * library, the dependencies and required peers its package.json names, and
 * the compiler with Node's types. Nothing else from the repository (no
 * NestJS, no emulator, no test runner) is there.
 */
function installOnlyTheTarball(root: string): string {
  const modules = join(root, 'node_modules');
  const library = join(modules, 'bigtable-mapper');
  mkdirSync(library, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', library, '--strip-components=1']);
  const manifest = JSON.parse(readFileSync(join(library, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  };
  const requiredPeers = Object.keys(manifest.peerDependencies ?? {}).filter(
    (name) => manifest.peerDependenciesMeta?.[name]?.optional !== true,
  );
  for (const name of [...Object.keys(manifest.dependencies ?? {}), ...requiredPeers, 'typescript', '@types/node']) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(repositoryModules, name), join(modules, name), 'dir');
  }
  return root;
}

describe('an app unit-testing its repositories against the packed tarball', () => {
  it('runs them on the in-memory Bigtable with node:test, without an emulator', { timeout: 120_000 }, async () => {
    const app = installOnlyTheTarball(join(work, 'app'));
    cpSync(join(import.meta.dirname, 'consumers', 'in-memory'), app, { recursive: true });
    await run(process.execPath, [join(app, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app]).catch(
      (err: { stdout?: string; message: string }) => {
        throw new Error(`tsc failed for the in-memory consumer:\n${err.stdout ?? err.message}`);
      },
    );
    const env: NodeJS.ProcessEnv = { ...process.env, METADATA_SERVER_DETECTION: 'none' };
    delete env['BIGTABLE_EMULATOR_HOST'];
    delete env['BIGTABLE_EMULATOR_BIN'];
    const files = ['testing-entry.test.js', 'orders.test.js'].map((file) => join(app, 'dist', file));
    const { stdout } = await run(process.execPath, ['--test', '--test-reporter=tap', ...files], {
      cwd: app,
      env,
      timeout: 60_000,
    }).catch((err: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`the in-memory consumer's tests failed:\n${err.stdout ?? ''}${err.stderr ?? err.message}`);
    });
    expect(stdout).toMatch(/^# pass 3$/m);
    expect(stdout).toMatch(/^# fail 0$/m);
  });
});
