/**
 * One repository's side of a linked set, from its commits: base (the parent of the earliest),
 * head, and the diff split into the gold `patch` (non-test files) and `test_patch` (test files).
 * Tests never count toward the gold patch: the evaluator owns them.
 *
 * When the side's commits are not one unbroken run of the branch (unrelated commits landed in
 * between), they are replayed onto the base in a scratch repository that borrows the mirror's
 * objects; a commit that does not apply there is a merge conflict between the set's commits.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isRustTestOnly } from '../core/test-file-rules.ts';
import { git, gitOut, summarizeStderr } from '../engine/git/git.ts';
import { diffChunks, hunkLines } from './diff-lines.ts';
import { type FileKind, fileKind } from './file-kinds.ts';
import { testGlobsAt } from './repo-test-globs.ts';
import type { ChangedFile } from './screening.ts';

export interface RepoChange {
  repo: string;
  url: string;
  base: string;
  /** The last commit, or a tree built by replaying the commits when they were not contiguous. */
  head: string;
  headIsReplay: boolean;
  commits: string[];
  patch: string;
  testPatch: string;
  files: ChangedFile[];
  /** The repository folder the revisions can be read from (`git show <rev>:<path>`). */
  gitDir: string;
}

export class ReplayConflict extends Error {
  override readonly name = 'ReplayConflict';
  constructor(
    readonly repo: string,
    message: string,
  ) {
    super(message);
  }
}

/** The gold and test diffs between two revisions, with per-file kinds and line counts. */
export async function splitChange(
  gitDir: string,
  base: string,
  head: string,
  testGlobs?: readonly string[],
): Promise<{ patch: string; testPatch: string; files: ChangedFile[] }> {
  const common = ['--no-renames', '--no-color', '--no-ext-diff', base, head, '--'];
  const names = (await git(['diff', '--name-only', '-z', ...common], { cwd: gitDir })).stdout
    .split('\0')
    .filter(Boolean);
  const chunks = diffChunks(
    (await git(['diff', '--binary', '--full-index', ...common], { cwd: gitDir })).stdout,
  );
  if (chunks.length !== names.length)
    throw new Error(`diff of ${base}..${head}: ${chunks.length} chunks for ${names.length} files`);
  // The repository's own rules, read where the change ends (its config may come with it).
  const globs = testGlobs ?? (await testGlobsAt(gitDir, head));
  const files: ChangedFile[] = [];
  let patch = '';
  let testPatch = '';
  for (const [i, name] of names.entries()) {
    const chunk = chunks[i]!;
    const { added, removed } = hunkLines(chunk);
    let kind: FileKind = fileKind(name, [...added, ...removed], globs);
    if (kind === 'code' && name.endsWith('.rs') && (await rustTestOnly(gitDir, base, head, name)))
      kind = 'test';
    files.push({ path: name, kind, added: added.length, removed: removed.length });
    if (kind === 'test') testPatch += chunk;
    else patch += chunk;
  }
  return { patch, testPatch, files };
}

/** A Rust file holding only `#[cfg(test)]` code, at head (or at base when the change deletes it). */
async function rustTestOnly(gitDir: string, base: string, head: string, file: string): Promise<boolean> {
  for (const rev of [head, base]) {
    const shown = await git(['show', `${rev}:${file}`], { cwd: gitDir, allowFailure: true });
    if (shown.code === 0) return isRustTestOnly(shown.stdout);
  }
  return false;
}

/** One change of a side: a commit (or a merged PR's head) and what it was made on. */
export interface ChangeStep {
  sha: string;
  parent: string;
}

/**
 * The side of `repo` made of `steps`, oldest first. When each step sits on the previous one the
 * head is the last commit; otherwise the steps are replayed in a scratch repository under
 * `scratchRoot` (the caller removes it).
 */
export async function repoChange(input: {
  repo: string;
  url: string;
  mirror: string;
  steps: readonly ChangeStep[];
  scratchRoot: string;
  testGlobs?: readonly string[];
}): Promise<RepoChange> {
  const steps = input.steps;
  const base = steps[0]!.parent;
  const contiguous = steps.every((s, i) => i === 0 || s.parent === steps[i - 1]!.sha);
  let gitDir = input.mirror;
  let head = steps.at(-1)!.sha;
  if (!contiguous) {
    gitDir = path.join(
      input.scratchRoot,
      `${input.repo.replace('/', '__')}-${randomBytes(4).toString('hex')}.git`,
    );
    await mkdir(input.scratchRoot, { recursive: true });
    await git(['clone', '--bare', '--shared', '--quiet', input.mirror, gitDir]);
    head = await replay(gitDir, base, steps, input.repo);
  }
  const split = await splitChange(gitDir, base, head, input.testGlobs);
  return {
    repo: input.repo,
    url: input.url,
    base,
    head,
    headIsReplay: !contiguous,
    commits: steps.map((s) => s.sha),
    gitDir,
    ...split,
  };
}

/** Applies each commit's own diff (against its first parent) onto `base` in an index; a tree. */
async function replay(
  gitDir: string,
  base: string,
  steps: readonly ChangeStep[],
  repo: string,
): Promise<string> {
  const env = { GIT_INDEX_FILE: path.join(gitDir, 'tandem-mine-index') };
  const patchFile = path.join(gitDir, 'tandem-mine.patch');
  await git(['read-tree', base], { cwd: gitDir, env });
  try {
    for (const { sha, parent } of steps) {
      const { stdout } = await git(['diff', '--binary', '--full-index', '--no-renames', parent, sha, '--'], {
        cwd: gitDir,
      });
      if (!stdout) continue;
      await writeFile(patchFile, stdout);
      const res = await git(['apply', '--cached', '--3way', patchFile], {
        cwd: gitDir,
        env,
        allowFailure: true,
      });
      if (res.code !== 0) {
        const why = summarizeStderr(res.stderr, 2, 200);
        throw new ReplayConflict(
          repo,
          `${repo}: ${sha.slice(0, 12)} does not apply after the set's earlier commits${why ? ` (${why})` : ''}`,
        );
      }
    }
    return await gitOut(['write-tree'], { cwd: gitDir, env });
  } finally {
    await rm(patchFile, { force: true });
  }
}
