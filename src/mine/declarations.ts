/**
 * Declarations a caller sees, read line by line so a whole file and a diff's added or removed
 * lines read alike: Python top-level functions, classes and their methods (`Class.method`; public
 * names only), Go exported functions, methods (`Type.Method`), types, constants and variables,
 * and JavaScript/TypeScript exports (`export …`, `exports.x =`, `export { a as b }`). The
 * TypeScript compiler reads whole TS/JS files for a candidate's `interface`
 * (`interface-diff.ts`); this reader serves Python and Go there, and every language for the
 * symbol cue. Pure.
 */

export interface Declaration {
  /** `name`, or `Owner.name` for a method whose class or receiver is in sight. */
  name: string;
  kind: 'Function' | 'Class' | 'Method' | 'Type' | 'Constant' | 'Variable' | 'Export';
  /** The declaring line without its body. */
  signature: string;
}

export type DeclarationLanguage = 'python' | 'go' | 'script';

export function declarationLanguage(file: string): DeclarationLanguage | undefined {
  if (/\.pyi?$/.test(file)) return 'python';
  if (/\.go$/.test(file)) return 'go';
  if (/\.(?:[mc]?[jt]s|[jt]sx)$/.test(file) && !/\.d\.[mc]?ts$/.test(file)) return 'script';
  return undefined;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

function python(lines: readonly string[]): Declaration[] {
  const out: Declaration[] = [];
  let cls: { name: string; indent: number } | undefined;
  for (const line of lines) {
    const indent = /^\s*/.exec(line)![0].replace(/\t/g, '    ').length;
    if (cls && line.trim() && indent <= cls.indent) cls = undefined;
    const c = /^(\s*)class\s+([A-Za-z_]\w*)\s*[(:]/.exec(line);
    if (c) {
      if (indent === 0) {
        cls = { name: c[2]!, indent };
        if (!c[2]!.startsWith('_'))
          out.push({ name: c[2]!, kind: 'Class', signature: squash(line).replace(/:$/, '') });
      }
      continue;
    }
    const d = /^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/.exec(line);
    if (!d || d[2]!.startsWith('_')) continue;
    const signature = squash(line).replace(/:\s*$/, '');
    if (indent === 0) out.push({ name: d[2]!, kind: 'Function', signature });
    // A method: of the class in sight, or of one outside the lines read (a diff hunk).
    else if (cls && indent > cls.indent) out.push({ name: `${cls.name}.${d[2]}`, kind: 'Method', signature });
    else if (!cls) out.push({ name: d[2]!, kind: 'Method', signature });
  }
  return out;
}

function go(lines: readonly string[]): Declaration[] {
  const out: Declaration[] = [];
  let block: 'const' | 'var' | 'type' | undefined;
  for (const line of lines) {
    const sig = squash(line.replace(/\{\s*$/, ''));
    if (block) {
      if (/^\)/.test(line)) block = undefined;
      else {
        const m = /^\s+([A-Z]\w*)\b/.exec(line);
        const kind = block === 'const' ? 'Constant' : block === 'var' ? 'Variable' : 'Type';
        if (m) out.push({ name: m[1]!, kind, signature: `${block} ${sig}` });
      }
      continue;
    }
    const open = /^(const|var|type)\s*\(\s*$/.exec(line);
    if (open) {
      block = open[1] as 'const' | 'var' | 'type';
      continue;
    }
    const method = /^func\s*\(\s*\w*\s*\*?\s*([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\)\s*([A-Z]\w*)/.exec(line);
    if (method) {
      out.push({ name: `${method[1]}.${method[2]}`, kind: 'Method', signature: sig });
      continue;
    }
    const fn = /^func\s+([A-Z]\w*)/.exec(line);
    if (fn) out.push({ name: fn[1]!, kind: 'Function', signature: sig });
    const other = /^(type|const|var)\s+([A-Z]\w*)/.exec(line);
    if (other) {
      const kind = other[1] === 'type' ? 'Type' : other[1] === 'const' ? 'Constant' : 'Variable';
      out.push({ name: other[2]!, kind, signature: sig });
    }
  }
  return out;
}

const SCRIPT_KINDS: Record<string, Declaration['kind']> = {
  function: 'Function',
  class: 'Class',
  const: 'Variable',
  let: 'Variable',
  var: 'Variable',
  interface: 'Type',
  type: 'Type',
  enum: 'Type',
};

function script(lines: readonly string[]): Declaration[] {
  const out: Declaration[] = [];
  for (const line of lines) {
    const sig = squash(line.replace(/\{\s*$/, ''));
    const m =
      /^\s*export\s+(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(function\*?|class|const|let|var|interface|type|enum)\s+([A-Za-z_$][\w$]*)/.exec(
        line,
      );
    if (m) {
      out.push({ name: m[2]!, kind: SCRIPT_KINDS[m[1]!.replace('*', '')] ?? 'Export', signature: sig });
      continue;
    }
    const cjs = /^\s*(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=/.exec(line);
    if (cjs) {
      out.push({ name: cjs[1]!, kind: 'Export', signature: sig });
      continue;
    }
    const list = /^\s*(?:export\s*|module\.exports\s*=\s*)\{([^}]*)\}/.exec(line);
    if (list) {
      for (const part of list[1]!.split(',')) {
        const name = /([A-Za-z_$][\w$]*)\s*$/.exec(part.trim().replace(/\s*:.*$/, ''))?.[1];
        if (name && name !== 'default') out.push({ name, kind: 'Export', signature: sig });
      }
    }
  }
  return out;
}

/** The declarations in some lines of `file`; empty for languages not read here. */
export function declarationsIn(file: string, lines: readonly string[]): Declaration[] {
  const lang = declarationLanguage(file);
  if (lang === 'python') return python(lines);
  if (lang === 'go') return go(lines);
  if (lang === 'script') return script(lines);
  return [];
}

/** Declarations of `head` that are new or whose signature differs from `base` (Python and Go). */
export function declarationChanges(
  file: string,
  base: string | undefined,
  head: string,
): Array<Declaration & { change: 'added' | 'changed' }> {
  const before = new Map(declarationsIn(file, (base ?? '').split('\n')).map((d) => [d.name, d.signature]));
  const out: Array<Declaration & { change: 'added' | 'changed' }> = [];
  const seen = new Set<string>();
  for (const d of declarationsIn(file, head.split('\n'))) {
    if (seen.has(d.name)) continue;
    seen.add(d.name);
    const old = before.get(d.name);
    if (old === undefined) out.push({ ...d, change: 'added' });
    else if (old !== d.signature) out.push({ ...d, change: 'changed' });
  }
  return out;
}
