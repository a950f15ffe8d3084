/**
 * Real git repositories for tests: a bare "remote" plus a work clone, with helpers to commit on
 * branches, push, tag, publish pull-request refs and produce unified diffs.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { git, gitOut } from '../../src/engine/git/git.ts';

export interface FixtureRepo {
  name: string;
  /** The bare repository: what a case's `url` points at. */
  bare: string;
  /** `file://` URL of the bare repository. */
  url: string;
  /** A non-bare clone that commits and pushes. */
  work: string;
}

/** File content by path; `null` deletes the file. */
export type Files = Record<string, string | null>;

/** Fixed, test-only identity; dates advance per commit so histories read naturally. */
let clock = 1_700_000_000;
function fixtureEnv(): Record<string, string> {
  clock += 60;
  const date = `@${clock} +0000`;
  return {
    GIT_AUTHOR_NAME: 'Fixture',
    GIT_AUTHOR_EMAIL: 'fixture@example.com',
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: 'Fixture',
    GIT_COMMITTER_EMAIL: 'fixture@example.com',
    GIT_COMMITTER_DATE: date,
  };
}

/** A fresh temp folder; remove it with `removeTempDir`. */
export function makeTempDir(prefix = 'tandem-test-'): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}

export function removeTempDir(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

/** Writes (or deletes, for `null`) files under `dir`, creating folders as needed. */
export async function writeFiles(dir: string, files: Files): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(dir, rel);
    if (content === null) await rm(file, { force: true });
    else {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content);
    }
  }
}

/**
 * Creates `<root>/<name>.git` (bare) and `<root>/<name>-work` with one commit of `files` on
 * `main` (or `opts.branch`), pushed.
 */
export async function createRepo(
  root: string,
  name: string,
  files: Files,
  opts: { branch?: string; message?: string } = {},
): Promise<FixtureRepo & { sha: string }> {
  const branch = opts.branch ?? 'main';
  const bare = path.join(root, `${name}.git`);
  const work = path.join(root, `${name}-work`);
  await git(['-c', `init.defaultBranch=${branch}`, 'init', '--quiet', '--bare', bare]);
  await git(['-c', `init.defaultBranch=${branch}`, 'init', '--quiet', work]);
  await git(['remote', 'add', 'origin', bare], { cwd: work });
  const repo: FixtureRepo = { name, bare, url: pathToFileURL(bare).href, work };
  await writeFiles(work, files);
  await git(['add', '--all'], { cwd: work });
  await git(['commit', '--quiet', '-m', opts.message ?? 'initial'], { cwd: work, env: fixtureEnv() });
  await git(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`], { cwd: work });
  return { ...repo, sha: await revParse(repo, 'HEAD') };
}

/**
 * Commits `files` on `branch` and pushes it. A new branch starts at `opts.from` (a ref or SHA),
 * default the work clone's current HEAD. Returns the new commit's SHA.
 */
export async function commitOn(
  repo: FixtureRepo,
  branch: string,
  files: Files,
  message = `change on ${branch}`,
  opts: { from?: string } = {},
): Promise<string> {
  const cwd = repo.work;
  const exists = (
    await git(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { cwd, allowFailure: true })
  ).code;
  if (exists === 0 && !opts.from) await git(['checkout', '--quiet', branch], { cwd });
  else await git(['checkout', '--quiet', '-B', branch, opts.from ?? 'HEAD'], { cwd });
  await writeFiles(cwd, files);
  await git(['add', '--all'], { cwd });
  await git(['commit', '--quiet', '--allow-empty', '-m', message], { cwd, env: fixtureEnv() });
  await git(['push', '--quiet', '--force', 'origin', `HEAD:refs/heads/${branch}`], { cwd });
  return revParse(repo, 'HEAD');
}

/** Publishes `sha` under any ref in the remote, e.g. `refs/pull/7/head`. */
export async function pushRef(repo: FixtureRepo, sha: string, ref: string): Promise<void> {
  await git(['push', '--quiet', '--force', 'origin', `${sha}:${ref}`], { cwd: repo.work });
}

/** Creates and pushes a lightweight tag. */
export async function tag(repo: FixtureRepo, name: string, sha: string): Promise<void> {
  await git(['tag', '--force', name, sha], { cwd: repo.work });
  await git(['push', '--quiet', '--force', 'origin', `refs/tags/${name}`], { cwd: repo.work });
}

/** Deletes a branch in the remote (e.g. a merged PR branch). */
export async function deleteBranch(repo: FixtureRepo, branch: string): Promise<void> {
  await git(['push', '--quiet', 'origin', `:refs/heads/${branch}`], { cwd: repo.work });
}

export function revParse(repo: FixtureRepo, ref: string): Promise<string> {
  return gitOut(['rev-parse', '--verify', `${ref}^{commit}`], { cwd: repo.work });
}

/** Unified diff (`git diff from to`, binary-safe) as a patch file would hold it. */
export function diffBetween(repo: FixtureRepo, from: string, to: string): Promise<string> {
  return git(['diff', '--binary', '--full-index', from, to], { cwd: repo.work }).then((r) => r.stdout);
}

/** Unified diff without `index` lines, like a hand-made patch: `--3way` has no blobs to merge with. */
export function plainDiffBetween(repo: FixtureRepo, from: string, to: string): Promise<string> {
  return git(['diff', '--no-color', from, to], { cwd: repo.work }).then((r) =>
    r.stdout.replace(/^index .*\n/gm, ''),
  );
}

/** The tree SHA of a commit in the fixture (to compare with materialized states). */
export function treeOf(repo: FixtureRepo, ref: string): Promise<string> {
  return gitOut(['rev-parse', `${ref}^{tree}`], { cwd: repo.work });
}
