import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../../src/', import.meta.url).pathname;
const ENTRY_POINTS = ['index.ts', 'json.ts', 'nest/index.ts', 'nest/terminus.ts', 'testing/index.ts'].map((path) =>
  join(SRC, path),
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

const program = ts.createProgram(sourceFiles(SRC), {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  experimentalDecorators: true,
  noEmit: true,
});
const checker = program.getTypeChecker();

/** The declaration's JSDoc as written (empty when it has none). */
function docOf(declaration: ts.Declaration): string {
  const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  return ts
    .getJSDocCommentsAndTags(node)
    .map((doc) => doc.getText())
    .join('\n');
}

/** Where a declaration is, for the failure message. */
function where(declaration: ts.Declaration, name: string): string {
  return `${relative(SRC, declaration.getSourceFile().fileName)}: ${name}`;
}

/** Every declaration a module exports, with its name; re-exports resolved to what they name. */
function exportsOf(file: ts.SourceFile): { name: string; declaration: ts.Declaration }[] {
  const module = checker.getSymbolAtLocation(file);
  if (module === undefined) return [];
  return checker.getExportsOfModule(module).flatMap((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    // An overloaded function is documented on its signatures; the implementation carries none.
    const declarations = (target.declarations ?? []).filter(
      (d) => !(ts.isFunctionDeclaration(d) && d.body !== undefined && (target.declarations?.length ?? 0) > 1),
    );
    return declarations.map((declaration) => ({ name: symbol.getName(), declaration }));
  });
}

describe('documentation', () => {
  it('everything the package entry points export has a JSDoc comment with an example', () => {
    const missing: string[] = [];
    for (const path of ENTRY_POINTS) {
      const file = program.getSourceFile(path);
      if (file === undefined) throw new Error(`entry point ${path} was not compiled`);
      for (const { name, declaration } of exportsOf(file)) {
        const doc = docOf(declaration);
        if (doc === '') missing.push(`${where(declaration, name)} (no JSDoc)`);
        else if (!doc.includes('@example') && !doc.includes('```'))
          missing.push(`${where(declaration, name)} (no example)`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the package root holds what an application needs: at most 80 names, values and types', () => {
    const root = program.getSourceFile(join(SRC, 'index.ts'));
    if (root === undefined) throw new Error('src/index.ts was not compiled');
    const module = checker.getSymbolAtLocation(root);
    const names = module === undefined ? [] : checker.getExportsOfModule(module).map((symbol) => symbol.getName());
    expect(names.length).toBeGreaterThan(40);
    expect(names.length, names.sort().join(', ')).toBeLessThanOrEqual(80);
  });

  it('every other export in src/ has a JSDoc comment', () => {
    const missing: string[] = [];
    for (const file of program.getSourceFiles()) {
      if (!file.fileName.startsWith(SRC) || file.fileName.endsWith('index.ts')) continue;
      for (const { name, declaration } of exportsOf(file)) {
        if (declaration.getSourceFile() !== file) continue;
        if (docOf(declaration) === '') missing.push(where(declaration, name));
      }
    }
    expect(missing).toEqual([]);
  });

  it('writes every example as a fenced code block, which the API site renders as code (an inline one keeps its backticks)', () => {
    const inline = program
      .getSourceFiles()
      .filter((file) => file.fileName.startsWith(SRC))
      .flatMap((file) =>
        [...file.text.matchAll(/@example[ \t]+`/g)].map(
          (match) => `${relative(SRC, file.fileName)}:${file.getLineAndCharacterOfPosition(match.index).line + 1}`,
        ),
      );
    expect(inline).toEqual([]);
  });

  it('finds the exports it checks (the check cannot pass by finding nothing)', () => {
    const root = program.getSourceFile(ENTRY_POINTS[0] as string) as ts.SourceFile;
    const names = exportsOf(root).map((e) => e.name);
    expect(names).toContain('BigtableMapper');
    expect(names).toContain('Entity');
    expect(names.length).toBeGreaterThan(40);
  });
});
