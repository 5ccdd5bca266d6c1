/**
 * Builds the package from `src/` into two self-contained formats:
 *
 * - `dist/esm`: ES modules and their declarations (tsconfig.build.json),
 *   marked `"type": "module"`;
 * - `dist/cjs`: CommonJS (tsconfig.build.cjs.json) with a copy of the same
 *   declarations, marked `"type": "commonjs"`.
 *
 * An optional argument puts the two folders under another directory instead
 * of `dist/` (`scripts/pack.ts` builds into a private folder this way, so two
 * builds never write to one output).
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
 * // node scripts/build.mjs /tmp/stage/dist
 * ```
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const out = process.argv[2] === undefined ? join(root, 'dist') : resolve(process.argv[2]);
if (!relative(out, root).startsWith('..')) {
  // The folder is removed first: never the repository or a folder holding it.
  console.error(`build: refusing to write into ${out}, which holds the repository`);
  process.exit(2);
}

function compile(project, outDir) {
  const result = spawnSync(process.execPath, [tsc, '-p', project, '--outDir', outDir], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error(`build: tsc -p ${project} failed`);
    process.exit(result.status ?? 1);
  }
}

function markModuleType(folder, type) {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ type })}\n`);
}

function copyDeclarations(from, to) {
  cpSync(from, to, {
    recursive: true,
    filter: (source) => !/\.[cm]?js$/.test(source) && !source.endsWith('package.json'),
  });
}

const esm = join(out, 'esm');
const cjs = join(out, 'cjs');
rmSync(out, { recursive: true, force: true });
compile('tsconfig.build.json', esm);
compile('tsconfig.build.cjs.json', cjs);
copyDeclarations(esm, cjs);
markModuleType(esm, 'module');
markModuleType(cjs, 'commonjs');
console.log(`build: ${esm} and ${cjs} written, each with its declarations`);
