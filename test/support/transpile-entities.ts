import ts from 'typescript';
import * as decorators from '../../src/decorators/index.js';

/**
 * How a source's decorators are compiled: legacy (`experimentalDecorators`),
 * legacy with `emitDecoratorMetadata` (`design:type`), or standard (TC39).
 */
export type DecoratorMode = 'legacy' | 'legacy-metadata' | 'standard';

/** The module a transpiled source gets for `import ... from 'bigtable-mapper'`: the decorators. */
const library = { ...decorators };

/**
 * Compiles `source` with TypeScript in `mode`, as `tsc` emits it (CommonJS,
 * ES2022), runs it, and returns its exports. `modules` are what other
 * `import`s resolve to, such as the exports of a source compiled in another
 * mode.
 *
 * @example
 * ```ts
 * const { Note } = defineEntities(`@Entity({ table: 'notes' }) export class Note {}`, 'standard');
 * ```
 */
export function defineEntities(
  source: string,
  mode: DecoratorMode,
  modules: Record<string, unknown> = {},
): Record<string, Function> {
  const { outputText, diagnostics } = ts.transpileModule(
    `import { Entity, KeyPart, Salt, Family, Column, CellTimestamp, Denormalized } from 'bigtable-mapper';\n${source}`,
    {
      reportDiagnostics: true,
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.CommonJS,
        experimentalDecorators: mode !== 'standard',
        emitDecoratorMetadata: mode === 'legacy-metadata',
        strict: true,
      },
    },
  );
  if (diagnostics !== undefined && diagnostics.length > 0) {
    throw new Error(ts.flattenDiagnosticMessageText(diagnostics[0]?.messageText, '\n'));
  }
  const exports: Record<string, Function> = {};
  const require = (name: string): unknown => {
    if (name === 'bigtable-mapper') return library;
    if (name in modules) return modules[name];
    throw new Error(`the source imports ${name}, which the test did not provide`);
  };
  new Function('require', 'exports', outputText)(require, exports);
  return exports;
}

/**
 * A comparable picture of a compiled schema: every own property, symbol-keyed
 * ones included, with functions and classes by name, bytes as hex, and
 * repeated objects (a schema refers back to itself) marked.
 *
 * @example
 * ```ts
 * expect(schemaShape(compileEntity(A))).toEqual(schemaShape(compileEntity(B)));
 * ```
 */
export function schemaShape(value: unknown, seen = new Map<object, string>(), path = '$'): unknown {
  if (typeof value === 'function') return `[function ${value.name}]`;
  if (value === null || typeof value !== 'object') return typeof value === 'bigint' ? `${value}n` : value;
  const earlier = seen.get(value);
  if (earlier !== undefined) return `[same as ${earlier}]`;
  seen.set(value, path);
  if (value instanceof Uint8Array) return `[bytes ${Buffer.from(value).toString('hex')}]`;
  if (value instanceof Date) return `[date ${value.toISOString()}]`;
  if (value instanceof Map)
    return [...value].map(([k, v], i) => [
      schemaShape(k, seen, `${path}<k${i}>`),
      schemaShape(v, seen, `${path}<${i}>`),
    ]);
  if (Array.isArray(value)) return value.map((v, i) => schemaShape(v, seen, `${path}[${i}]`));
  if (value instanceof Set) return [...value].map((v, i) => schemaShape(v, seen, `${path}{${i}}`));
  const shape: Record<string, unknown> = {};
  for (const key of Reflect.ownKeys(value)) {
    const name = typeof key === 'symbol' ? `[${key.description ?? 'symbol'}]` : key;
    shape[name] = schemaShape((value as Record<string | symbol, unknown>)[key], seen, `${path}.${name}`);
  }
  return shape;
}
