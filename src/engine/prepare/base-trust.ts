/**
 * Which base states may share prepared dependencies (issue 18 item 7). A base state shares its
 * prepared folder by `key_files`, and writes into the download cache every later base prepare
 * reads, so its install scripts decide what other evaluations mount: only states of reviewed
 * history may do that. A base is trusted when its commit is on a trusted branch — reachable from
 * that branch's tip in the mirror — where the trusted branches are the suite's
 * `prepare.<repo>.trusted_bases`, by default the repository's default branch (the mirror's HEAD).
 * Reachability, not the name the case gives: a PR onto a pushed branch (`base: evil`), or a
 * case that names a SHA off every trusted branch, is prepared like a PR head (its own folder keyed
 * by its tree, no download cache), whatever it says. A commit later merged into a trusted branch
 * becomes trusted; a stale mirror only errs toward not sharing.
 */
import { git } from '../git/git.ts';

/** The branch the mirror's HEAD names (the remote's default branch when it was cloned). */
async function defaultBranch(mirror: string): Promise<string | undefined> {
  const res = await git(['symbolic-ref', '--quiet', 'HEAD'], { cwd: mirror, allowFailure: true });
  const ref = res.stdout.trim();
  return res.code === 0 && ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
}

/** Whether `sha` is on one of the trusted branches of the mirror (the default branch unless `trusted`). */
export async function isTrustedBase(
  mirror: string,
  sha: string,
  trusted: readonly string[] | undefined,
): Promise<boolean> {
  const branches = trusted ?? [await defaultBranch(mirror)].flatMap((b) => (b ? [b] : []));
  for (const branch of branches) {
    const res = await git(['merge-base', '--is-ancestor', sha, `refs/heads/${branch}`], {
      cwd: mirror,
      allowFailure: true,
    });
    if (res.code === 0) return true;
  }
  return false;
}
