/**
 * Checks on host paths that PR code may have shaped. Docker resolves a bind mount's source on
 * the host, and `rename`/`readFile` follow links, so a link committed by a PR (or made by its
 * install script) would otherwise hand the host's own files to the sandbox or the report.
 * A confined path lies lexically under a root Tandem owns, has no symbolic link in any component
 * below that root, and still resolves (realpath) under the root.
 */
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';

export class UnconfinedPathError extends Error {
  override readonly name = 'UnconfinedPathError';
  constructor(
    message: string,
    /** What is wrong, for callers that decide by it (never by the message's text). */
    readonly reason: 'outside' | 'missing' | 'link' | 'not-a-folder' | 'not-a-file' = 'outside',
  ) {
    super(message);
  }
}

/** Whether `child` is `root` itself or lies under it (lexically, both resolved). */
export function isWithin(root: string, child: string): boolean {
  const rel = path.relative(path.resolve(root), path.resolve(child));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Whether `child` lies under `root` and is not `root` itself (lexically, both resolved). */
export function isStrictlyWithin(root: string, child: string): boolean {
  return isWithin(root, child) && path.resolve(root) !== path.resolve(child);
}

/**
 * Throws UnconfinedPathError unless `p` is a real `kind` (no link anywhere from `root` down)
 * inside `root`. `label` names the path in the message, never the link's target.
 */
export async function assertConfined(
  root: string,
  p: string,
  kind: 'directory' | 'file',
  label: string,
): Promise<void> {
  const base = path.resolve(root);
  const full = path.resolve(p);
  if (!isWithin(base, full)) throw new UnconfinedPathError(`${label} lies outside ${base}`);
  let at = base;
  const parts = path.relative(base, full).split(path.sep).filter(Boolean);
  for (const [i, part] of parts.entries()) {
    at = path.join(at, part);
    let st: Awaited<ReturnType<typeof lstat>>;
    try {
      st = await lstat(at);
    } catch {
      throw new UnconfinedPathError(`${label} does not exist`, 'missing');
    }
    if (st.isSymbolicLink())
      throw new UnconfinedPathError(`${label} is or passes through a symbolic link`, 'link');
    const last = i === parts.length - 1;
    if (!last && !st.isDirectory())
      throw new UnconfinedPathError(`${label} passes through a non-folder`, 'not-a-folder');
    if (last && kind === 'directory' && !st.isDirectory())
      throw new UnconfinedPathError(`${label} is not a folder`, 'not-a-folder');
    if (last && kind === 'file' && !st.isFile())
      throw new UnconfinedPathError(`${label} is not a regular file`, 'not-a-file');
  }
  // Belt and braces: the root itself may be a link Tandem was given (e.g. /tmp on macOS), so
  // compare resolved paths rather than trusting the lexical check alone.
  const [realRoot, realFull] = await Promise.all([realpath(base), realpath(full)]);
  if (!isWithin(realRoot, realFull)) throw new UnconfinedPathError(`${label} resolves outside ${base}`);
}
