/**
 * Checks the packed library as a consumer's tools will see it:
 * `@arethetypeswrong/cli` (types resolve, in the right module format, for
 * `require` and `import` under node10, node16 and bundler resolution), for
 * every entry point the packed package.json `exports` declares (named one by
 * one, so a new subpath is checked as soon as it is exported), and `publint`
 * (package.json fields match the files). Checks TARBALL when given
 * (`npm run test:package` packs once and passes it), else packs the library
 * into a temporary folder first. Exit code 1 when either reports a problem.
 * Usage: `npm run check:package [-- TARBALL]`.
 *
 * @example
 * ```ts
 * // npm run check:package
 * // npx tsx scripts/check-package.ts /tmp/pack/bigtable-mapper-0.1.0.tgz
 * ```
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packLibrary } from './pack.js';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.bin');

function run(tool: string, args: string[]): boolean {
  console.log(`check-package: ${tool} ${args.join(' ')}`);
  return spawnSync(join(bin, tool), args, { stdio: 'inherit' }).status === 0;
}

/** The subpaths of the packed package.json `exports` (`.`, `./tools`, ...), without `./package.json`. */
function entryPoints(tarball: string): string[] {
  const manifest = JSON.parse(
    execFileSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' }),
  ) as {
    exports?: Record<string, unknown>;
  };
  return Object.keys(manifest.exports ?? {}).filter((subpath) => subpath !== './package.json');
}

function check(tarball: string): void {
  const entries = entryPoints(tarball);
  console.log(`check-package: entry points ${entries.join(' ')}`);
  const typesOk =
    entries.length > 0 &&
    run('attw', [
      tarball,
      '--profile',
      'strict',
      '--format',
      'table-flipped',
      '--no-emoji',
      '--entrypoints',
      ...entries,
    ]);
  const fieldsOk = run('publint', ['run', tarball, '--strict', '--level', 'suggestion']);
  if (!typesOk || !fieldsOk) process.exitCode = 1;
}

const given = process.argv[2];
if (given !== undefined) {
  check(resolve(given));
} else {
  const work = mkdtempSync(join(tmpdir(), 'bigtable-mapper-check-'));
  try {
    check(packLibrary(work).tarball);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
