/**
 * Two checks on the TypeScript program, for the App's store turning asynchronous (issue 27): a
 * store method called without `await` would hand its caller a promise where it expected a row, and
 * a promise nobody awaits drops its rejection. Both are read with the compiler's own checker, so a
 * table reached through a parameter (`HandoffStore`, `CommentStatesTable`) is found as well as
 * `store.pulls.get(...)`.
 *
 * - `unawaitedStoreCalls`: every call of a method declared in `src/app/store/` from a file outside
 *   it must be the operand of `await` (or an element of an array given to `Promise.all`), whether
 *   the store answers synchronously today or not; and `store.db` (the SQLite handle) must not be
 *   used outside the store.
 * - `floatingPromises`: a promise-valued expression statement that is neither awaited nor marked
 *   `void`, and a promise-returning function given where a `void` callback is expected (an event
 *   handler, `setTimeout`, `forEach`): its rejection would be lost. And a promise tested for truth
 *   (`if (!claim(...))`): it is always true.
 */
import path from 'node:path';
import ts from 'typescript';

export interface Finding {
  /** `path:line` relative to the project root. */
  where: string;
  /** The offending source text, shortened. */
  text: string;
}

/** A program over the given root files with the project's compiler options. */
export function projectProgram(root: string, files: readonly string[]): ts.Program {
  const config = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  return ts.createProgram({ rootNames: [...files], options: parsed.options });
}

/** The project's `.ts` files under `dirs` (relative to root), minus those `skip` matches. */
export function projectFiles(
  root: string,
  dirs: readonly string[],
  skip: (rel: string) => boolean,
): string[] {
  const found = dirs.flatMap((d) => ts.sys.readDirectory(path.join(root, d), ['.ts'], ['**/node_modules']));
  return found.filter((f) => !f.endsWith('.d.ts') && !skip(path.relative(root, f)));
}

function finding(root: string, node: ts.Node): Finding {
  const sf = node.getSourceFile();
  const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const text = node.getText(sf).replace(/\s+/g, ' ');
  return {
    where: `${path.relative(root, sf.fileName)}:${line}`,
    text: text.length > 90 ? `${text.slice(0, 87)}...` : text,
  };
}

function walk(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  ts.forEachChild(node, (c) => walk(c, visit));
}

/** The node's parent with parentheses and type assertions seen through. */
function outer(node: ts.Node): ts.Node {
  let p = node.parent;
  while (ts.isParenthesizedExpression(p) || ts.isAsExpression(p) || ts.isNonNullExpression(p)) p = p.parent;
  return p;
}

function isPromiseAll(node: ts.Node): boolean {
  const arr = outer(node);
  if (!ts.isArrayLiteralExpression(arr) && !ts.isSpreadElement(arr)) return false;
  const call = ts.isSpreadElement(arr) ? outer(arr) : outer(arr);
  return ts.isCallExpression(call) && /^Promise\.(all|allSettled)$/.test(call.expression.getText());
}

/** A call returned (or the concise body) of an `async` function: its promise is the function's. */
function returnedFromAsync(p: ts.Node): boolean {
  let fn: ts.Node | undefined = p;
  if (ts.isReturnStatement(p)) while (fn && !ts.isFunctionLike(fn)) fn = fn.parent;
  return (
    fn !== undefined &&
    ts.isFunctionLike(fn) &&
    (ts.getCombinedModifierFlags(fn as ts.Declaration) & ts.ModifierFlags.Async) !== 0
  );
}

function isUnderStore(storeDir: string, file: string): boolean {
  return path.resolve(file).startsWith(`${storeDir}${path.sep}`);
}

export function unawaitedStoreCalls(root: string, program: ts.Program): Finding[] {
  const checker = program.getTypeChecker();
  const storeDir = path.join(root, 'src/app/store');
  const out: Finding[] = [];
  for (const sf of program.getSourceFiles()) {
    if (
      sf.isDeclarationFile ||
      !path.resolve(sf.fileName).startsWith(root) ||
      isUnderStore(storeDir, sf.fileName)
    )
      continue;
    if (sf.fileName.includes('node_modules')) continue;
    walk(sf, (n) => {
      if (
        ts.isPropertyAccessExpression(n) &&
        n.name.text === 'db' &&
        isStoreClass(checker, storeDir, n.expression)
      )
        out.push(finding(root, n));
      if (!ts.isCallExpression(n)) return;
      const decl = checker.getResolvedSignature(n)?.declaration;
      if (!decl || !ts.isMethodDeclaration(decl) || !isUnderStore(storeDir, decl.getSourceFile().fileName))
        return;
      const p = outer(n);
      if (ts.isAwaitExpression(p) || isPromiseAll(n) || returnedFromAsync(p)) return;
      out.push(finding(root, n));
    });
  }
  return out;
}

function isStoreClass(checker: ts.TypeChecker, storeDir: string, expr: ts.Expression): boolean {
  const decl = checker.getTypeAtLocation(expr).getSymbol()?.declarations?.[0];
  return decl !== undefined && isUnderStore(storeDir, decl.getSourceFile().fileName);
}

function isThenable(checker: ts.TypeChecker, type: ts.Type): boolean {
  if (type.isUnion()) return type.types.some((t) => isThenable(checker, t));
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return false;
  const then = type.getProperty('then');
  if (!then) return false;
  return checker.getTypeOfSymbol(then).getCallSignatures().length > 0;
}

/** A promise whatever it holds (`Promise<T> | undefined` may be tested for being there). */
function alwaysThenable(checker: ts.TypeChecker, type: ts.Type): boolean {
  return type.isUnion() ? type.types.every((t) => isThenable(checker, t)) : isThenable(checker, type);
}

/** True when every call signature of the contextual type returns `void`. */
function expectsVoid(checker: ts.TypeChecker, fn: ts.Expression): boolean {
  const ctx = checker.getContextualType(fn);
  if (!ctx) return false;
  const sigs = ctx.getNonNullableType().getCallSignatures();
  return (
    sigs.length > 0 &&
    sigs.every((s) => (checker.getReturnTypeOfSignature(s).flags & ts.TypeFlags.Void) !== 0)
  );
}

/** `x = promise`: kept to be awaited later, not dropped. */
function isAssignment(e: ts.Expression): boolean {
  return (
    ts.isBinaryExpression(e) &&
    e.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
    e.operatorToken.kind <= ts.SyntaxKind.LastAssignment
  );
}

/** `p.catch(f)` or `p.then(f, g)`: the rejection has a handler. */
function handlesRejection(e: ts.Expression): boolean {
  if (!ts.isCallExpression(e) || !ts.isPropertyAccessExpression(e.expression)) return false;
  const name = e.expression.name.text;
  return name === 'catch' || (name === 'then' && e.arguments.length === 2);
}

/** The expression a node tests for truth (a promise there is always true), if any. */
function conditionOf(n: ts.Node): ts.Expression | undefined {
  if (ts.isIfStatement(n) || ts.isWhileStatement(n) || ts.isDoStatement(n)) return n.expression;
  if (ts.isConditionalExpression(n)) return n.condition;
  if (ts.isPrefixUnaryExpression(n) && n.operator === ts.SyntaxKind.ExclamationToken) return n.operand;
  if (
    ts.isBinaryExpression(n) &&
    (n.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken ||
      n.operatorToken.kind === ts.SyntaxKind.BarBarToken)
  )
    return n.left;
  return undefined;
}

export function floatingPromises(root: string, program: ts.Program, files: ReadonlySet<string>): Finding[] {
  const checker = program.getTypeChecker();
  const out: Finding[] = [];
  for (const sf of program.getSourceFiles()) {
    if (!files.has(path.resolve(sf.fileName))) continue;
    walk(sf, (n) => {
      if (ts.isExpressionStatement(n)) {
        const e = n.expression;
        if (ts.isVoidExpression(e) || ts.isAwaitExpression(e) || isAssignment(e) || handlesRejection(e))
          return;
        if (isThenable(checker, checker.getTypeAtLocation(e))) out.push(finding(root, n));
      }
      const tested = conditionOf(n);
      if (tested && alwaysThenable(checker, checker.getTypeAtLocation(tested)))
        out.push(finding(root, tested));
      if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && expectsVoid(checker, n)) {
        const sig = checker.getSignatureFromDeclaration(n);
        if (sig && isThenable(checker, checker.getReturnTypeOfSignature(sig))) out.push(finding(root, n));
      }
    });
  }
  return out;
}
