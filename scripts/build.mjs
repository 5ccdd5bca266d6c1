/**
 * Builds the package from `src/` into two self-contained formats:
 *
 * - `dist/esm`: ES modules and their declarations (tsconfig.build.json),
 *   marked `"type": "module"`;
 * - `dist/cjs`: CommonJS (tsconfig.build.cjs.json) with a copy of the same
 *   declarations, marked `"type": "commonjs"`.
 *
 * TypeScript reads a declaration file in the module format of the folder it
 * sits in, so `require` consumers get CommonJS types and `import` consumers ES
 * module types (package.json `exports` points each condition at its folder).
 * The declarations are emitted once and copied: they hold only `export`
 * syntax and relative `./x.js` specifiers, which mean the same in both formats.
 *
 * @example
 * ```ts
 * // npm run build
 * ```
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
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

function copyDeclarations(from, to) {
  cpSync(join(root, from), join(root, to), {
    recursive: true,
    filter: (source) => !/\.[cm]?js$/.test(source) && !source.endsWith('package.json'),
  });
}

rmSync(join(root, 'dist'), { recursive: true, force: true });
compile('tsconfig.build.json');
compile('tsconfig.build.cjs.json');
copyDeclarations('dist/esm', 'dist/cjs');
markModuleType('dist/esm', 'module');
markModuleType('dist/cjs', 'commonjs');
console.log('build: dist/esm and dist/cjs written, each with its declarations');
