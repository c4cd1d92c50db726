/**
 * No text that a person wrote is ever read as a replacement pattern. `String.prototype.replace` and `replaceAll`
 * read `$&`, `` $` ``, `$'` and `$1` in a replacement string: a blog title of forty `` $` `` once made one public
 * page 315 MB. So across the code every replacement is a function, or a string literal written here; a variable,
 * a call or a template with values fails this test, whatever it holds today (docs/guarantees.md#text-into-pages).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const FOLDERS = ['server', 'workers', 'shared', 'platform', 'projections', 'main', 'client', 'scripts'];

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') found.push(...sourceFiles(path));
    else if (/\.tsx?$/u.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** A constant named in capitals (`FORMER_MEMBER_NAME`) is ours, written once; anything else may carry someone's text. */
const isOwnConstant = (node: ts.Expression) => ts.isIdentifier(node) && /^[A-Z][A-Z0-9_]*$/u.test(node.text);

function safeReplacement(node: ts.Expression, functions: Set<string>): boolean {
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return true;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return true;
  if (ts.isParenthesizedExpression(node)) return safeReplacement(node.expression, functions);
  return isOwnConstant(node) || (ts.isIdentifier(node) && functions.has(node.text));
}

/** Names the file gives to functions (declared, or a constant holding one): a replacer passed by name. */
function functionNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node) && node.name) names.add(node.name.text);
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
    )
      names.add(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** Every `.replace(x, y)` / `.replaceAll(x, y)` whose `y` is not a function or a literal, as `file:line`. */
export function unsafeReplacements(file: string, text: string): string[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const functions = functionNames(source);
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ['replace', 'replaceAll'].includes(node.expression.name.text)
    ) {
      const replacement = node.arguments[1];
      if (node.arguments.length === 2 && replacement && !safeReplacement(replacement, functions)) {
        found.push(`${relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('replacement strings', () => {
  it("are functions or literals everywhere: no member’s text is ever read as `$&`, `` $` ``, `$'` or `$1`", () => {
    const files = FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)));
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => unsafeReplacements(file, readFileSync(file, 'utf8')))).toEqual([]);
    // Parsing every source file takes 2–3 s alone and passed the unit tests' 5 s once under CI's load.
  }, 30_000);

  it('finds the forms that would read a pattern', () => {
    const code = [
      "html.replace('</head>', `${head}</head>`);",
      'html.replace(/x/g, title);',
      "html.replaceAll('x', make(title));",
      "html.replace('x', () => title);",
      "html.replace('x', '$1');",
      'html.replace(SLOT, TOKEN);',
      'function escape(c: string) { return c; }',
      'html.replace(/x/g, escape);',
    ].join('\n');
    expect(unsafeReplacements(join(ROOT, 'example.ts'), code)).toEqual(['example.ts:1', 'example.ts:2', 'example.ts:3']);
  });
});
