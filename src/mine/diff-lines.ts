/**
 * Unified diffs as mining reads them: per file, the lines it added and removed (without the
 * `+`/`-`). Git's `diff --git` output and GitHub's per-file `patch` fields both read here. Pure.
 */

export interface FileDiff {
  path: string;
  added: string[];
  removed: string[];
}

/** Added and removed lines of one file's diff (hunks only: headers are skipped). */
export function hunkLines(chunk: string): { added: string[]; removed: string[] } {
  const added: string[] = [];
  const removed: string[] = [];
  let inHunk = false;
  for (const line of chunk.split('\n')) {
    if (line.startsWith('@@')) inHunk = true;
    else if (!inHunk || line.startsWith('\\')) continue;
    else if (line.startsWith('diff --git ')) inHunk = false;
    else if (line.startsWith('+')) added.push(line.slice(1));
    else if (line.startsWith('-')) removed.push(line.slice(1));
  }
  return { added, removed };
}

/** A `git diff` output cut into one chunk per file, in order. */
export function diffChunks(diff: string): string[] {
  return diff.split(/^(?=diff --git )/m).filter((part) => part.startsWith('diff --git '));
}

/** The file a `diff --git` chunk is about (its new path; the old one for a deletion). */
export function chunkPath(chunk: string): string {
  const plus = /^\+\+\+ b\/(.+)$/m.exec(chunk);
  if (plus) return plus[1]!;
  const minus = /^--- a\/(.+)$/m.exec(chunk);
  if (minus) return minus[1]!;
  const header = /^diff --git a\/(.+?) b\/(.+)$/m.exec(chunk);
  return header?.[2] ?? '';
}

/** Every file of a `git diff` output. */
export function fileDiffs(diff: string): FileDiff[] {
  return diffChunks(diff).map((chunk) => ({ path: chunkPath(chunk), ...hunkLines(chunk) }));
}
