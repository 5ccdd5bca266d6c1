import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MetadataKeys } from '../metadata/keys.js';
import { getOwnValue } from '../metadata/store.js';
import type { Constructor } from '../model/declarations.js';
import { CliUsageError } from './cli-errors.js';

/**
 * Loads the modules named by `--entities` and returns every entity class they
 * export: exported classes carrying `@Entity`, and entity classes one level
 * inside exported objects or arrays (`export const demo = { Reading, Sensor }`),
 * so factory-made entities can be listed. TypeScript modules load through
 * `tsx` when the project has it.
 */
export async function loadEntities(modules: readonly string[], cwd: string): Promise<Constructor[]> {
  if (modules.length === 0) {
    throw new CliUsageError(
      'no entity modules given',
      'pass --entities <module> (compiled JS, or TypeScript with tsx installed)',
    );
  }
  const found = new Set<Constructor>();
  for (const specifier of modules) {
    const exports = await importModule(specifier, cwd);
    for (const value of Object.values(exports)) {
      for (const candidate of isEntity(value) ? [value] : nestedValues(value)) {
        if (isEntity(candidate)) found.add(candidate);
      }
    }
  }
  if (found.size === 0) {
    throw new CliUsageError(
      `no @Entity classes exported by ${modules.join(', ')}`,
      'export the entity classes (or an object holding them) from the module',
    );
  }
  return [...found];
}

/**
 * Picks one entity by class name or table id; with a table prefix, also by the
 * prefixed table id (the real one, as `sync` prints it), which comes first.
 * The error lists the names known, and names the prefix when the name looks
 * like a prefixed table id.
 */
export function pickEntity(entities: readonly Constructor[], name: string, tablePrefix = ''): Constructor {
  const byName = entities.filter((e) => e.name === name);
  if (byName.length === 1) return byName[0]!;
  const tableOf = (e: Constructor) => getOwnValue<{ table?: string }>(MetadataKeys.entity, e)?.table;
  const byPrefixed = tablePrefix === '' ? [] : entities.filter((e) => tablePrefix + tableOf(e) === name);
  if (byPrefixed.length === 1) return byPrefixed[0]!;
  const byTable = entities.filter((e) => tableOf(e) === name);
  if (byTable.length === 1) return byTable[0]!;
  const known = entities.map((e) => e.name).join(', ');
  if (byName.length > 1 || byPrefixed.length > 1 || byTable.length > 1) {
    throw new CliUsageError(
      `"${name}" names more than one entity`,
      `use a table id to tell them apart (entities: ${known})`,
    );
  }
  const prefixed = entities
    .map(tableOf)
    .find((table) => table !== undefined && table !== '' && name.length > table.length && name.endsWith(table));
  if (prefixed !== undefined && tablePrefix === '') {
    const prefix = name.slice(0, -prefixed.length);
    throw new CliUsageError(
      `no entity named "${name}"`,
      `for the table ${prefixed} with a table prefix, pass --table-prefix ${prefix} (or set BIGTABLE_TABLE_PREFIX); else use one of: ${known}`,
    );
  }
  throw new CliUsageError(`no entity named "${name}"`, `use one of: ${known}`);
}

function isEntity(value: unknown): value is Constructor {
  return typeof value === 'function' && getOwnValue(MetadataKeys.entity, value) !== undefined;
}

function nestedValues(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value);
  }
  return [];
}

async function importModule(specifier: string, cwd: string): Promise<Record<string, unknown>> {
  const path = isAbsolute(specifier) ? specifier : resolve(cwd, specifier);
  const url = pathToFileURL(path).href;
  try {
    if (!/\.[cm]?tsx?$/.test(path)) return (await import(url)) as Record<string, unknown>;
    const tsx = await loadTsx(cwd);
    return (await tsx.tsImport(url, url)) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    throw new CliUsageError(`cannot load entity module ${specifier}: ${(error as Error).message}`, 'check the path');
  }
}

interface TsxApi {
  tsImport(specifier: string, parent: string): Promise<unknown>;
}

async function loadTsx(cwd: string): Promise<TsxApi> {
  for (const base of [join(cwd, 'package.json'), fileURLToPath(import.meta.url)]) {
    const entry = tsxEsmApi(base);
    if (entry !== undefined) return (await import(pathToFileURL(entry).href)) as TsxApi;
  }
  throw new CliUsageError(
    'loading a TypeScript entity module needs tsx',
    'install it (npm install -D tsx), or point --entities at the compiled JS',
  );
}

/** The ES module file of `tsx/esm/api` installed next to `base`, read from tsx's own `exports`. */
function tsxEsmApi(base: string): string | undefined {
  let manifest: string;
  try {
    manifest = createRequire(base).resolve('tsx/package.json');
  } catch {
    return undefined;
  }
  const exports = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports?: Record<string, unknown> }).exports;
  const target = (exports?.['./esm/api'] as { import?: { default?: unknown } } | undefined)?.import?.default;
  return typeof target === 'string' ? join(dirname(manifest), target) : undefined;
}
