import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = new URL('../../../src/', import.meta.url).pathname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !name.endsWith('index.ts') ? [path] : [];
  });
}

/** Exported declarations of a file with their JSDoc text (empty when missing). */
function exportedDocs(path: string): { name: string; doc: string }[] {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: { name: string; doc: string }[] = [];
  for (const statement of file.statements) {
    const exported =
      ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported || ts.isExportDeclaration(statement)) continue;
    if (
      ts.isFunctionDeclaration(statement) &&
      statement.body !== undefined &&
      file.statements.some(
        (s) => s !== statement && ts.isFunctionDeclaration(s) && s.name?.text === statement.name?.text,
      )
    )
      continue;
    const names = ts.isVariableStatement(statement)
      ? statement.declarationList.declarations.map((d) => d.name.getText(file))
      : [(statement as ts.DeclarationStatement).name?.getText(file) ?? '(default)'];
    const doc = ts
      .getJSDocCommentsAndTags(statement)
      .map((d) => d.getText(file))
      .join('\n');
    for (const name of names) found.push({ name, doc });
  }
  return found;
}

describe('documentation', () => {
  it('every export in src/ has a JSDoc comment, and every public one an example', () => {
    const missing: string[] = [];
    for (const path of sourceFiles(SRC)) {
      for (const { name, doc } of exportedDocs(path)) {
        const where = `${relative(SRC, path)}: ${name}`;
        if (doc === '') missing.push(`${where} (no JSDoc)`);
        else if (!doc.includes('@internal') && !doc.includes('@example') && !doc.includes('```'))
          missing.push(`${where} (no example)`);
      }
    }
    expect(missing).toEqual([]);
  });
});
