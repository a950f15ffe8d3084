/**
 * The `merge` input: lines of globs (minimatch syntax: `*`, `?`, `**`, `[…]`, `{a,b}`), relative
 * to the workspace or absolute; a line starting with `!` drops what it matches from the others'
 * matches, whatever its position. Node 20 has no `fs.glob`, so the folders are walked here, only
 * as deep as a pattern can still match. Matches are regular files, absolute, sorted, once each.
 */
import { type Dirent, readdirSync } from 'node:fs';
import path from 'node:path';
import { escape as escapeGlob, Minimatch } from 'minimatch';

const OPTIONS = { dot: false, nocomment: true, nonegate: true } as const;

/** The pattern as an absolute POSIX glob; the workspace part is escaped (it is no glob). */
function absolute(pattern: string, cwd: string): string {
  const p = pattern.replaceAll('\\', '/');
  if (path.posix.isAbsolute(p)) return p;
  return `${escapeGlob(cwd.replaceAll('\\', '/').replace(/\/$/, ''), { magicalBraces: true })}/${p}`;
}

/** The literal folders a pattern starts with (one per `{a,b}` alternative). */
function roots(mm: Minimatch): string[] {
  return mm.set.map((parts) => {
    const literal: string[] = [];
    for (const part of parts.slice(0, -1)) {
      if (typeof part !== 'string') break;
      literal.push(part);
    }
    return literal.join('/') || '/';
  });
}

function walk(dir: string, mm: Minimatch, out: Set<string>): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // a root that does not exist matches nothing
  }
  for (const e of entries) {
    const full = path.posix.join(dir, e.name);
    // Symbolic links are not followed: no loops, and nothing outside what was named.
    if (e.isDirectory()) {
      if (mm.match(full, true)) walk(full, mm, out);
    } else if (e.isFile() && mm.match(full)) out.add(full);
  }
}

export function expandGlobs(lines: readonly string[], cwd: string): string[] {
  const include: Minimatch[] = [];
  const exclude: Minimatch[] = [];
  for (const line of lines) {
    const negated = line.startsWith('!');
    const pattern = negated ? line.slice(1) : line;
    if (!pattern) continue;
    (negated ? exclude : include).push(new Minimatch(absolute(pattern, cwd), OPTIONS));
  }
  const found = new Set<string>();
  for (const mm of include) for (const root of new Set(roots(mm))) walk(root, mm, found);
  return [...found]
    .filter((f) => !exclude.some((mm) => mm.match(f)))
    .map((f) => path.resolve(f))
    .sort();
}
