import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../../src/', import.meta.url).pathname;

/** The specifiers a module imports at run time: those left after TypeScript drops the type-only imports. */
function runtimeImports(file: string): string[] {
  const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, experimentalDecorators: true },
    fileName: file,
  });
  const emitted = ts.createSourceFile(file.replace(/\.ts$/, '.js'), outputText, ts.ScriptTarget.ES2022);
  const specifiers: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined)
      specifiers.push((node.moduleSpecifier as ts.StringLiteral).text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument !== undefined && ts.isStringLiteral(argument)) specifiers.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(emitted);
  return specifiers;
}

/** Every package (bare specifier) the module loads at run time, through its relative imports too; stops once `until` is found. */
function packagesLoadedBy(entry: string, until?: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file) || (until !== undefined && packages.has(until))) return;
    seen.add(file);
    for (const specifier of runtimeImports(file)) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  };
  visit(join(SRC, entry));
  return packages;
}

describe('bigtable-mapper/testing', () => {
  it('loads neither the Google client nor gRPC: the in-memory Bigtable needs only Node.js', () => {
    const loaded = [...packagesLoadedBy('testing/index.ts')];
    expect(loaded.filter((name) => /^@google-cloud\/|^@grpc\/|^google-gax\b/.test(name))).toEqual([]);
    expect(loaded.filter((name) => !name.startsWith('node:'))).toEqual([]);
  });

  it('the check sees the client where it is loaded (the root entry point, through the real driver)', () => {
    expect([...packagesLoadedBy('index.ts', '@google-cloud/bigtable')]).toContain('@google-cloud/bigtable');
  });
});
