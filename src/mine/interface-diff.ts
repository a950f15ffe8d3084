/**
 * The `interface` of a gold patch in TypeScript/JavaScript: the exported declarations it adds or
 * changes (name, signature, file), read with the TypeScript compiler API. SWE-bench Pro gives
 * agents these so a correct solution is not failed for naming a function differently.
 *
 * `typescript` is imported on first use only: mining a Go or Python history never loads it. It is
 * an optional peer of the package (23 MB a CLI user does not need otherwise): when it is missing,
 * mining a TypeScript or JavaScript history says how to add it.
 */
import type * as TS from 'typescript';
import { InputError } from '../core/errors.ts';

export interface InterfaceEntry {
  file: string;
  name: string;
  kind: string;
  signature: string;
  change: 'added' | 'changed';
}

const load = () =>
  import('typescript').then(
    (m) => m.default,
    (err: unknown) => {
      if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
      throw new InputError(
        'tandem mine: reading the interface of TypeScript and JavaScript changes needs the optional package "typescript", which is not installed: `npm install -g typescript` beside a global tandem (or `npm install typescript` beside a local one)',
      );
    },
  );
type Ts = Awaited<ReturnType<typeof load>>;
let loaded: Promise<Ts> | undefined;
function typescript(): Promise<Ts> {
  loaded ??= load();
  return loaded;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A declaration without its body: what a caller sees. */
function signatureOf(ts: Ts, node: TS.Node, sf: TS.SourceFile): string {
  const text = (from: number, to: number) => squash(sf.text.slice(from, to));
  const start = node.getStart(sf);
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.body)
    return text(start, node.body.getStart(sf));
  if (ts.isClassDeclaration(node)) {
    const open = node.members.pos;
    const members = node.members
      .filter(
        (m) =>
          !(ts.getModifiers(m as TS.HasModifiers) ?? []).some((x) => x.kind === ts.SyntaxKind.PrivateKeyword),
      )
      .filter((m) => !(m.name && ts.isPrivateIdentifier(m.name)))
      .map((m) => {
        if ((ts.isMethodDeclaration(m) || ts.isConstructorDeclaration(m)) && m.body)
          return text(m.getStart(sf), m.body.getStart(sf));
        if (ts.isPropertyDeclaration(m))
          return text(m.getStart(sf), (m.initializer ?? m).getEnd()).replace(/\s*=.*$/, '');
        return text(m.getStart(sf), m.getEnd());
      });
    return `${text(start, open).replace(/\{$/, '').trim()} { ${members.join('; ')} }`;
  }
  if (ts.isVariableDeclaration(node)) {
    const init = node.initializer;
    if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)))
      return `const ${node.name.getText(sf)} = ${text(init.getStart(sf), init.body.getStart(sf))}`.replace(
        /\s*=>\s*$/,
        ' =>',
      );
    return `const ${text(node.name.getStart(sf), (node.type ?? node.name).getEnd())}`;
  }
  return text(start, node.getEnd());
}

/** Exported declarations of one source text: name → {kind, signature}. */
export async function exportedDeclarations(
  file: string,
  source: string,
): Promise<Map<string, { kind: string; signature: string }>> {
  const ts = await typescript();
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const out = new Map<string, { kind: string; signature: string }>();
  const exported = (n: TS.Node) =>
    ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const stmt of sf.statements) {
    if (!exported(stmt)) continue;
    const kind = ts.SyntaxKind[stmt.kind].replace(/Declaration$|Statement$/, '');
    if (ts.isVariableStatement(stmt)) {
      for (const d of stmt.declarationList.declarations)
        if (ts.isIdentifier(d.name))
          out.set(d.name.text, { kind: 'Variable', signature: signatureOf(ts, d, sf) });
    } else if (
      (ts.isFunctionDeclaration(stmt) ||
        ts.isClassDeclaration(stmt) ||
        ts.isInterfaceDeclaration(stmt) ||
        ts.isTypeAliasDeclaration(stmt) ||
        ts.isEnumDeclaration(stmt)) &&
      stmt.name
    ) {
      // Overloads: keep every signature of a name, joined.
      const prev = out.get(stmt.name.text);
      const signature = signatureOf(ts, stmt, sf);
      out.set(stmt.name.text, { kind, signature: prev ? `${prev.signature}; ${signature}` : signature });
    }
  }
  return out;
}

/** Declarations exported at `head` that are new or whose signature differs from `base`. */
export async function interfaceChanges(
  file: string,
  base: string | undefined,
  head: string,
): Promise<InterfaceEntry[]> {
  const before = base === undefined ? new Map() : await exportedDeclarations(file, base);
  const after = await exportedDeclarations(file, head);
  const out: InterfaceEntry[] = [];
  for (const [name, decl] of after) {
    const old = before.get(name);
    if (!old) out.push({ file, name, ...decl, change: 'added' });
    else if (old.signature !== decl.signature) out.push({ file, name, ...decl, change: 'changed' });
  }
  return out;
}
