/**
 * Every module with a browser variant (`<name>.browser.ts` beside `<name>.ts`, taken by the browser
 * build: scripts/browser-build.mjs) exports the same names as the module it stands for.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../', import.meta.url));

function exportedNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  for (const statement of source.statements) {
    const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (exported && (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) names.push(statement.name.text);
    if (exported && ts.isVariableStatement(statement)) for (const d of statement.declarationList.declarations) names.push(d.name.getText(source));
    if (ts.isExportDeclaration(statement) && !statement.isTypeOnly && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) if (!element.isTypeOnly) names.push(element.name.text);
    }
  }
  return names.sort();
}

const VARIANTS = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.browser.ts'))
  .map((file) => path.join(SRC, file));

describe('browser variants', () => {
  it('exist for the modules the browser build swaps', () => {
    expect(VARIANTS.map((file) => path.relative(SRC, file).split(path.sep).join('/')).sort()).toEqual([
      'config/version.browser.ts',
      'openapi/bundle-loader.browser.ts',
      'openapi/validators-loader.browser.ts',
      'platform/digest.browser.ts',
    ]);
  });

  it.each(VARIANTS.map((file) => [path.relative(SRC, file), file] as const))('%s exports what the module it stands for exports', (_name, file) => {
    expect(exportedNames(file)).toEqual(exportedNames(file.replace(/\.browser\.ts$/, '.ts')));
  });
});
