/**
 * The layer rules of docs/design.md, checked on the import graph: every relative import (static,
 * `export … from`, dynamic `import()`) of every `.ts` file under a source root is read with the
 * TypeScript compiler's own pre-processor, so a violation cannot hide in formatting.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Which layers each layer may import (besides itself). */
export const ALLOWED_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  core: [],
  engine: ['core'],
  report: ['core'],
  github: ['core'],
  bench: ['core', 'engine', 'report', 'github'],
  mine: ['core', 'engine', 'report', 'github'],
  app: ['core', 'engine', 'report', 'github', 'bench', 'mine'],
  action: ['core', 'engine', 'report', 'github', 'bench', 'mine'],
  cli: ['core', 'engine', 'report', 'github', 'bench', 'mine'],
};

/** Packages core may not use: it is pure (no file system, processes, network, Docker, SQLite). */
export const CORE_FORBIDDEN_PACKAGES = [
  /^node:(fs|child_process|net|http|https|dgram|worker_threads|cluster)(\/|$)/,
  /^(fs|child_process|net|http|https)$/,
  /^(dockerode|better-sqlite3|probot|@octokit\/|@actions\/)/,
];

export interface Violation {
  file: string;
  imports: string;
  rule: string;
}

function* tsFiles(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* tsFiles(p);
    else if (p.endsWith('.ts')) yield p;
  }
}

const layerOf = (srcRoot: string, file: string) => path.relative(srcRoot, file).split(path.sep)[0]!;

export function layerViolations(srcRoot: string): Violation[] {
  const out: Violation[] = [];
  for (const file of tsFiles(srcRoot)) {
    const rel = path.relative(srcRoot, file);
    const from = layerOf(srcRoot, file);
    const allowed = ALLOWED_IMPORTS[from];
    if (!allowed || rel === from) {
      out.push({
        file: rel,
        imports: '',
        rule: `not inside a known layer (${Object.keys(ALLOWED_IMPORTS).join(', ')})`,
      });
      continue;
    }
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) {
        if (from === 'core' && CORE_FORBIDDEN_PACKAGES.some((re) => re.test(fileName)))
          out.push({ file: rel, imports: fileName, rule: 'core is pure: no I/O packages' });
        continue;
      }
      const target = path.resolve(path.dirname(file), fileName);
      const to = path.relative(srcRoot, target).startsWith('..') ? '(outside src)' : layerOf(srcRoot, target);
      if (to === from || allowed.includes(to)) continue;
      out.push({
        file: rel,
        imports: fileName,
        rule: `${from} may import only ${allowed.join(', ') || 'nothing of ours'}`,
      });
    }
  }
  return out;
}
