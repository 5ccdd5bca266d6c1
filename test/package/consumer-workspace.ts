import { execFileSync } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's `node_modules`, where the consumers' tools (tsc, @types/node) come from. */
export const repositoryModules = join(import.meta.dirname, '..', '..', 'node_modules');

/**
 * A throwaway folder laid out like an app that ran `npm install <tarball>`:
 * `node_modules/bigtable-mapper` is the unpacked tarball (a real folder, so
 * nothing resolves back into the repository's sources), and every other
 * package is a symlink into an existing `node_modules`: `preferredModules`
 * first when given (e.g. an app's install of another NestJS major), then the
 * repository's own.
 *
 * @example
 * ```ts
 * const root = createConsumerWorkspace(mkdtempSync(join(tmpdir(), 'consumers-')), tarball);
 * ```
 */
export function createConsumerWorkspace(root: string, tarball: string, preferredModules?: string): string {
  const modules = join(root, 'node_modules');
  const library = join(modules, 'bigtable-mapper');
  mkdirSync(library, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', library, '--strip-components=1']);
  if (preferredModules !== undefined) linkPackages(preferredModules, modules);
  linkPackages(repositoryModules, modules);
  return root;
}

/** Copies a consumer fixture (package.json, tsconfig.json, main.ts) into the workspace. */
export function addConsumer(root: string, fixture: string): string {
  const target = join(root, fixture);
  cpSync(join(import.meta.dirname, 'consumers', fixture), target, { recursive: true });
  return target;
}

function linkPackages(source: string, modules: string): void {
  for (const name of readdirSync(source)) {
    if (name.startsWith('.') || name === 'bigtable-mapper') continue;
    if (name.startsWith('@')) {
      mkdirSync(join(modules, name), { recursive: true });
      for (const scoped of readdirSync(join(source, name)))
        link(join(source, name, scoped), join(modules, name, scoped));
    } else {
      link(join(source, name), join(modules, name));
    }
  }
}

function link(target: string, path: string): void {
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) symlinkSync(target, path, 'dir');
}
