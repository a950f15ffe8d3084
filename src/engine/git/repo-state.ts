/**
 * Repository states materialized from a mirror into plain folders: base and context checkouts,
 * heads as a merge onto the base (like GitHub's merge ref) or a patch applied to it. Every state
 * carries its tree SHA, the content address the result cache keys on.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { urlWithoutCredentials } from '../../core/credentials.ts';
import { InfraError } from '../../core/errors.ts';
import { git, gitOut, summarizeStderr, TANDEM_COMMIT_ENV } from './git.ts';
import { hasCommit, mirrorOriginUrl } from './git-mirror.ts';
import { applyPatch, type PatchMethod } from './patch-apply.ts';

export interface RepoState {
  dir: string;
  commitSha: string;
  /** `HEAD^{tree}`: equal content gives an equal tree SHA whatever the history. */
  treeSha: string;
}

export interface StateOptions {
  /** The repository as the case names it (`owner/name`), for error messages. */
  target?: string;
  /** Recorded as `remote.origin.url`; defaults to the mirror's origin. Credentials are removed. */
  originUrl?: string;
}

/**
 * A standalone checkout of `sha` in `dir` (replaced if present). Objects are hardlinked from the
 * mirror when on the same filesystem, copied otherwise. No alternates: the folder is mounted into
 * containers where the mirror's host path does not exist.
 */
export async function materializeCheckout(
  mirror: string,
  sha: string,
  dir: string,
  opts: StateOptions = {},
): Promise<RepoState> {
  const target = opts.target ?? path.basename(dir);
  if (!(await hasCommit(mirror, sha))) {
    throw new InfraError('unknown-ref', `commit ${sha} of ${target} is not in its mirror`, { target });
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.dirname(dir), { recursive: true });
  // No explicit `--local`: for a plain path git hardlinks anyway, and only without the flag does it
  // fall back to copying when the cache and the state folder are on different filesystems.
  await git(['clone', '--no-checkout', '--quiet', '--', mirror, dir]);
  await git(['checkout', '--quiet', '--detach', sha], { cwd: dir });
  const origin = opts.originUrl ? urlWithoutCredentials(opts.originUrl) : await mirrorOriginUrl(mirror);
  if (origin) await git(['remote', 'set-url', 'origin', origin], { cwd: dir });
  return describeState(dir);
}

/**
 * The head merged onto the base with `--no-ff` and a fixed identity and date, as GitHub builds
 * `refs/pull/N/merge`: same base and head, same merge SHA. A conflict is an infrastructure error
 * naming the conflicting paths.
 */
export async function headFromMerge(
  mirror: string,
  baseSha: string,
  headSha: string,
  dir: string,
  opts: StateOptions = {},
): Promise<RepoState> {
  const target = opts.target ?? path.basename(dir);
  if (!(await hasCommit(mirror, headSha))) {
    throw new InfraError('unknown-ref', `head commit ${headSha} of ${target} is not in its mirror`, {
      target,
    });
  }
  await materializeCheckout(mirror, baseSha, dir, opts);
  const res = await git(
    ['merge', '--no-ff', '--no-edit', '--quiet', '-m', `Merge ${headSha} into ${baseSha}`, headSha],
    { cwd: dir, env: TANDEM_COMMIT_ENV, allowFailure: true },
  );
  if (res.code !== 0) {
    const unmerged = await gitOut(['diff', '--name-only', '--diff-filter=U', '-z'], { cwd: dir });
    const files = unmerged.split('\0').filter(Boolean);
    await git(['merge', '--abort'], { cwd: dir, allowFailure: true });
    const why = files.length
      ? `conflicts in ${files.join(', ')}`
      : summarizeStderr(`${res.stdout}\n${res.stderr}`) || 'git merge failed';
    throw new InfraError(
      'merge-conflict',
      `head ${headSha.slice(0, 12)} of ${target} does not merge onto base ${baseSha.slice(0, 12)}: ${why}`,
      { target, files },
    );
  }
  return describeState(dir);
}

/**
 * The base with a patch applied (SWE-bench fallback chain), committed with a fixed identity and
 * date so the state has a commit SHA. Reports which method applied it.
 */
export async function headFromPatch(
  mirror: string,
  baseSha: string,
  patchText: string,
  dir: string,
  opts: StateOptions = {},
): Promise<RepoState & { method: PatchMethod }> {
  const target = opts.target ?? path.basename(dir);
  await materializeCheckout(mirror, baseSha, dir, opts);
  const { method } = await applyPatch(dir, patchText, { target });
  // --force: the tree is clean apart from the patch, so ignored paths it creates belong in it too.
  await git(['add', '--all', '--force'], { cwd: dir });
  await git(['commit', '--quiet', '--no-verify', '--allow-empty', '-m', `Apply patch to ${target}`], {
    cwd: dir,
    env: TANDEM_COMMIT_ENV,
  });
  return { ...(await describeState(dir)), method };
}

export async function describeState(dir: string): Promise<RepoState> {
  const [commitSha, treeSha] = (await gitOut(['rev-parse', 'HEAD', 'HEAD^{tree}'], { cwd: dir })).split('\n');
  return { dir, commitSha: commitSha!.trim(), treeSha: treeSha!.trim() };
}
