/**
 * Lists the functions of `src/` longer than a limit (default 100 lines), longest first, as a
 * maintainability figure: `npx tsx scripts/long-functions.ts [limit] [folder]`. A function's length
 * is the lines from its first to its last line, its body included; a function nested in a long
 * one is measured (and listed) on its own as well.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface LongFunction {
  name: string;
  /** 1-based line where the function starts. */
  line: number;
  lines: number;
}

/** The name a reader would look for: the declaration's own, else what it is assigned to. */
function nameOf(node: ts.SignatureDeclaration, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(file);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '(anonymous)';
}

/** The functions of one source text longer than `limit` lines, in source order. */
export function longFunctionsIn(text: string, fileName: string, limit: number): LongFunction[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > limit) found.push({ name: nameOf(node, file), line: start + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

function main(): void {
  const limit = Number(process.argv[2] ?? 100);
  const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
  const dir = join(root, process.argv[3] ?? 'src');
  const all = sourceFiles(dir).flatMap((f) =>
    longFunctionsIn(readFileSync(f, 'utf8'), f, limit).map((fn) => ({ ...fn, file: relative(root, f) })),
  );
  all.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
  for (const fn of all) console.log(`${String(fn.lines).padStart(4)}  ${fn.file}:${fn.line}  ${fn.name}`);
  console.log(`${all.length} function(s) over ${limit} lines in ${relative(root, dir) || '.'}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
