/**
 * Builds the library and packs it with `npm pack` into a folder, as npm would
 * publish it. Prints the tarball's path. Usage: `npx tsx scripts/pack.ts DIR`.
 *
 * The build goes into a private staging folder inside DIR (the package's
 * `files` copied beside a fresh `dist/`), never into the repository's `dist/`:
 * two packs at once, or a pack during `npm run build`, never share an output.
 *
 * @example
 * ```ts
 * const { tarball, files } = packLibrary(mkdtempSync(join(tmpdir(), 'pack-')));
 * ```
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A packed tarball and the paths inside it (relative, without npm's `package/` prefix). */
export interface PackedLibrary {
  tarball: string;
  files: string[];
}

/** The file list of a tarball made by `npm pack`. */
export function tarballFiles(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '' && !line.endsWith('/'))
    .map((line) => line.replace(/^package\//, ''))
    .sort();
}

/**
 * Copies what npm would pack from the repository (package.json and the top-level entries its `files` names,
 * except `dist`) into `stage`; `npm pack` there applies the same `files` patterns, so the tarball is the one a
 * pack of the repository gives.
 */
function stagePackage(stage: string): void {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
  const entries = new Set(['package.json', ...manifest.files.map((pattern) => pattern.split('/')[0] as string)]);
  entries.delete('dist');
  for (const entry of entries) {
    cpSync(join(root, entry), join(stage, entry), {
      recursive: true,
      // Generated API docs (npm run docs) are not packed; skip copying them.
      filter: (source) => source !== join(root, 'docs', 'api'),
    });
  }
}

/** Builds the library into a private staging folder and packs it into `destination`. */
export function packLibrary(destination: string): PackedLibrary {
  const target = resolve(destination);
  mkdirSync(target, { recursive: true });
  const stage = mkdtempSync(join(target, 'stage-'));
  try {
    stagePackage(stage);
    execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), join(stage, 'dist')], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // --ignore-scripts: prepack would build again, into the repository's dist/.
    const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', target], {
      cwd: stage,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [packed] = JSON.parse(out) as [{ filename: string }];
    const tarball = join(target, packed.filename);
    return { tarball, files: tarballFiles(tarball) };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const destination = process.argv[2];
  if (destination === undefined) {
    console.error('usage: npx tsx scripts/pack.ts DIR');
    process.exit(2);
  }
  console.log(packLibrary(destination).tarball);
}
