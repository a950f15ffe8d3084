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

/** Packages core may not use: it is pure (no file system, processes, network, Docker, SQLite, PostgreSQL). */
export const CORE_FORBIDDEN_PACKAGES = [
  /^node:(fs|child_process|net|http|https|dgram|worker_threads|cluster)(\/|$)/,
  /^(fs|child_process|net|http|https)$/,
  /^(dockerode|better-sqlite3|pg|@electric-sql\/|probot|@octokit\/|@actions\/)/,
];

/**
 * The App's rooms (folders of `src/app/`) and which other rooms each may import. `.` is the App's
 * root, the host files; a room may use its leaf helpers but never the composition files, which
 * import the rooms.
 */
export const APP_ROOM_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  store: [],
  port: [],
  ops: [],
  replicas: ['store'],
  linking: ['store', 'port'],
  executors: ['store', 'port', '.'],
  evaluations: ['store', 'port', 'linking', 'executors', 'ops', '.'],
  'merge-queue': ['evaluations', 'store', 'port', 'linking', 'executors', '.'],
  'merge-command': ['store', 'port', 'linking', 'evaluations', '.'],
  webhooks: ['evaluations', 'merge-queue', 'merge-command', 'executors', 'linking', 'port', '.'],
  '.': [
    'store',
    'port',
    'ops',
    'replicas',
    'linking',
    'executors',
    'evaluations',
    'merge-queue',
    'merge-command',
    'webhooks',
  ],
};

/** Root files that compose the App: no room imports them (they import the rooms). */
export const APP_COMPOSITION_FILES = ['index.ts', 'main.ts', 'server.ts'];

const roomOf = (appRel: string) => {
  const parts = appRel.split(path.sep);
  return parts.length > 1 ? parts[0]! : '.';
};

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
    if (from === 'app' && !APP_ROOM_IMPORTS[roomOf(path.relative(path.join(srcRoot, 'app'), file))]) {
      out.push({ file: rel, imports: '', rule: `app room of ${rel} is not a known room` });
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
      if (to === 'app' && from === 'app') {
        const fromRoom = roomOf(path.relative(path.join(srcRoot, 'app'), file));
        const toRel = path.relative(path.join(srcRoot, 'app'), target);
        const toRoom = roomOf(toRel);
        const rooms = APP_ROOM_IMPORTS[fromRoom];
        if (!rooms) continue; // said once above
        if (toRoom !== fromRoom && !rooms.includes(toRoom)) {
          out.push({
            file: rel,
            imports: fileName,
            rule: `app/${fromRoom} may import only ${rooms.join(', ') || 'no other room'}`,
          });
        } else if (fromRoom !== '.' && toRoom === '.' && APP_COMPOSITION_FILES.includes(toRel)) {
          out.push({
            file: rel,
            imports: fileName,
            rule: `a room never imports the App's composition (${toRel})`,
          });
        }
        continue;
      }
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

/** Every relative import edge of the tree (type-only imports included: a cycle of types is one too). */
function importEdges(srcRoot: string): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of tsFiles(srcRoot)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const to = info.importedFiles
      .filter((f) => f.fileName.startsWith('.'))
      .map((f) => path.relative(srcRoot, path.resolve(path.dirname(file), f.fileName)));
    edges.set(path.relative(srcRoot, file), to);
  }
  return edges;
}

/** Import cycles under `srcRoot`, each as the files around it (depth-first, one per cycle found). */
export function importCycles(srcRoot: string): string[][] {
  const edges = importEdges(srcRoot);
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const t of edges.get(f) ?? []) {
      if (state.get(t) === 'open') cycles.push([...stack.slice(stack.indexOf(t)), t]);
      else if (!state.has(t) && edges.has(t)) visit(t);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of [...edges.keys()].sort()) if (!state.has(f)) visit(f);
  return cycles;
}
