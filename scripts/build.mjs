/**
 * Builds the package: `dist/esm` + `dist/types` (tsconfig.build.json) and
 * `dist/cjs` (tsconfig.build.cjs.json) from `src/`, then marks each output
 * folder with its module type. Usage: `npm run build`.
 *
 * @example
 * ```ts
 * // node scripts/build.mjs
 * ```
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function compile(project) {
  const result = spawnSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`build: tsc -p ${project} failed`);
    process.exit(result.status ?? 1);
  }
}

function markModuleType(folder, type) {
  mkdirSync(join(root, folder), { recursive: true });
  writeFileSync(join(root, folder, 'package.json'), `${JSON.stringify({ type })}\n`);
}

rmSync(join(root, 'dist'), { recursive: true, force: true });
compile('tsconfig.build.json');
compile('tsconfig.build.cjs.json');
markModuleType('dist/esm', 'module');
markModuleType('dist/cjs', 'commonjs');
console.log('build: dist/esm, dist/cjs and dist/types written');
