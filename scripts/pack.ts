/**
 * Builds the library and packs it with `npm pack` into a folder, as npm would
 * publish it. Prints the tarball's path. Usage: `npx tsx scripts/pack.ts DIR`.
 *
 * @example
 * ```ts
 * const { tarball, files } = packLibrary(mkdtempSync(join(tmpdir(), 'pack-')));
 * ```
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
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

/** Builds `dist/` and packs the package into `destination`. */
export function packLibrary(destination: string): PackedLibrary {
  mkdirSync(destination, { recursive: true });
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // --ignore-scripts: prepack would build a second time.
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [packed] = JSON.parse(out) as [{ filename: string }];
  const tarball = join(resolve(destination), packed.filename);
  return { tarball, files: tarballFiles(tarball) };
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const destination = process.argv[2];
  if (destination === undefined) {
    console.error('usage: npx tsx scripts/pack.ts DIR');
    process.exit(2);
  }
  console.log(packLibrary(destination).tarball);
}
