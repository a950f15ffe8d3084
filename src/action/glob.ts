/**
 * A small glob for the `merge` input (Node 20 has no `fs.glob`): `*` and `?` within a path
 * segment, `**` across segments. Patterns are relative to the workspace; matches come back
 * absolute, sorted, without duplicates.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

function toRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      // `**/` matches zero or more folders.
      const slash = pattern[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function walk(dir: string, rel: string, out: string[]): void {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const childRel = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) walk(path.join(dir, e.name), childRel, out);
    else if (e.isFile()) out.push(childRel);
  }
}

export function expandGlobs(patterns: readonly string[], cwd: string): string[] {
  const found = new Set<string>();
  for (const raw of patterns) {
    const pattern = raw.replaceAll('\\', '/');
    const abs = path.isAbsolute(pattern);
    const segments = pattern.split('/');
    const firstGlob = segments.findIndex((s) => /[*?]/.test(s));
    if (firstGlob < 0) {
      found.add(path.resolve(cwd, pattern));
      continue;
    }
    const root = path.resolve(cwd, segments.slice(0, firstGlob).join('/') || (abs ? '/' : '.'));
    const re = toRegExp(segments.slice(firstGlob).join('/'));
    const files: string[] = [];
    walk(root, '', files);
    for (const f of files) if (re.test(f)) found.add(path.join(root, f));
  }
  return [...found].sort();
}
