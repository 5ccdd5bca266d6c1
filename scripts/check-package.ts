/**
 * Packs the library into a temporary folder and checks the tarball as a
 * consumer's tools will see it: `@arethetypeswrong/cli` (types resolve, in the
 * right module format, for `require` and `import` under node10, node16 and
 * bundler resolution) and `publint` (package.json fields match the files).
 * Exit code 1 when either reports a problem. Usage: `npm run check:package`.
 *
 * @example
 * ```ts
 * // npm run check:package
 * ```
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packLibrary } from './pack.js';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.bin');

function run(tool: string, args: string[]): boolean {
  console.log(`check-package: ${tool} ${args.join(' ')}`);
  return spawnSync(join(bin, tool), args, { stdio: 'inherit' }).status === 0;
}

const work = mkdtempSync(join(tmpdir(), 'bigtable-mapper-check-'));
try {
  const { tarball } = packLibrary(work);
  const typesOk = run('attw', [tarball, '--profile', 'strict', '--format', 'table-flipped', '--no-emoji']);
  const fieldsOk = run('publint', ['run', tarball, '--strict', '--level', 'suggestion']);
  if (!typesOk || !fieldsOk) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
