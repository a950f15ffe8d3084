/**
 * Turns the suite's `wiring` into what a configuration's sandbox needs: links (the producer's
 * folder appearing inside the consumer), variables (PYTHONPATH, GOWORK) and a go.work at the
 * workspace root, which lies outside every checkout so the consumer's diff stays the PR's.
 * Pure: the repositories' folders and prepared mounts come in, a layout goes out.
 */
import path from 'node:path';
import type { Wiring } from '../../core/suite.schema.ts';
import type { ReadonlyMount, WorkspaceLink } from '../sandbox/sandbox.ts';

export interface WiredRepo {
  /** `owner/name` as in the case. */
  repo: string;
  /** Workspace folder name. */
  name: string;
  /** Prepared folders of this repository (workspacePath under `<name>/`). */
  mounts: ReadonlyMount[];
}

export interface WiringLayout {
  links: WorkspaceLink[];
  /** Prepared folders repeated inside wired producers (Docker only: see `nested`). */
  readonlyMounts: ReadonlyMount[];
  workspaceEnv: Record<string, string[]>;
  /** Folders (workspace-relative) a go.work at the workspace root must `use`; [] for none. */
  goModules: string[];
}

/** The go.work file's name at the workspace root ($GOWORK). */
export const GO_WORK = 'go.work';

const join = path.posix.join;

/** Where, relative to the consumer's folder, an entry's link goes; undefined for python and go. */
export function wiringTarget(w: Wiring): string | undefined {
  if (w.as === 'node') return join(w.path ?? '', 'node_modules', w.name);
  if (w.as === 'path') return w.path;
  return undefined;
}

/**
 * `nested`: a bind mount shows the producer's folder as it is on the host, without the mounts
 * inside it (its prepared node_modules, its own wiring), so those are repeated under the link;
 * Node then resolves the producer's dependencies from inside the wired path. A symlink (the
 * process sandbox) needs none of that: Node follows it to the producer's real folder.
 */
export function wiringLayout(wiring: Wiring[], repos: WiredRepo[], nested: boolean): WiringLayout {
  const byId = (id: string): WiredRepo => {
    const r = repos.find((x) => x.repo === id || x.name === id);
    // The case loader has checked every entry against the case; this is a programming error.
    if (!r) throw new Error(`wiring names "${id}", which is not in the workspace`);
    return r;
  };
  const memo = new Map<string, { mounts: ReadonlyMount[]; links: WorkspaceLink[] }>();
  // Everything mounted at or under one repository's folder: its prepared folders, its links, and
  // (nested) what lies under each linked producer, moved to where the link puts it.
  const under = (r: WiredRepo): { mounts: ReadonlyMount[]; links: WorkspaceLink[] } => {
    const known = memo.get(r.name);
    if (known) return known;
    const mounts = [...r.mounts];
    const links: WorkspaceLink[] = [];
    for (const w of wiring) {
      const target = wiringTarget(w);
      if (target === undefined || byId(w.into) !== r) continue;
      const producer = byId(w.repo);
      const link = { source: join(producer.name, w.from ?? ''), target: join(r.name, target) };
      links.push(link);
      if (!nested) continue;
      const inner = under(producer);
      const moved = (p: string) =>
        p.startsWith(`${link.source}/`) ? link.target + p.slice(link.source.length) : undefined;
      for (const m of inner.mounts) {
        const at = moved(m.workspacePath);
        if (at) mounts.push({ hostPath: m.hostPath, workspacePath: at });
      }
      for (const l of inner.links) {
        const at = moved(l.target);
        if (at) links.push({ source: l.source, target: at });
      }
    }
    const result = { mounts, links };
    memo.set(r.name, result);
    return result;
  };
  const own = new Set(repos.flatMap((r) => r.mounts.map((m) => m.workspacePath)));
  const all = repos.map(under);
  const pythonPath = wiring
    .filter((w) => w.as === 'python')
    .map((w) => join(byId(w.repo).name, w.from ?? ''));
  const goModules = wiring
    .filter((w) => w.as === 'go')
    .flatMap((w) => [join(byId(w.into).name, w.path ?? ''), join(byId(w.repo).name, w.from ?? '')]);
  const workspaceEnv: Record<string, string[]> = {};
  if (pythonPath.length > 0) workspaceEnv.PYTHONPATH = unique(pythonPath);
  if (goModules.length > 0) workspaceEnv.GOWORK = [GO_WORK];
  return {
    links: uniqueBy(
      all.flatMap((x) => x.links),
      (l) => l.target,
    ),
    readonlyMounts: uniqueBy(
      all.flatMap((x) => x.mounts).filter((m) => !own.has(m.workspacePath)),
      (m) => m.workspacePath,
    ),
    workspaceEnv,
    goModules: unique(goModules),
  };
}

/** A go.work using `modules`, at the highest `go` version any of their go.mod files asks for. */
export function goWorkFile(modules: string[], goVersions: string[]): string {
  const newest = goVersions.reduce((a, b) => (compareVersions(a, b) >= 0 ? a : b), '1.18');
  return [`go ${newest}`, '', 'use (', ...modules.map((m) => `\t./${m}`), ')', ''].join('\n');
}

/** The `go` directive of a go.mod's text, if any. */
export function goDirective(goMod: string): string | undefined {
  return /^go\s+(\d+\.\d+(?:\.\d+)?)\s*$/m.exec(goMod)?.[1];
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}

function uniqueBy<T>(xs: T[], key: (x: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const x of xs) if (!seen.has(key(x))) seen.set(key(x), x);
  return [...seen.values()];
}
