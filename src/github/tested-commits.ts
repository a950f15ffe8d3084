/**
 * The commit a queue item's member is tested as, and later landed as (issue 28): a temporary
 * branch `tandem/queue/<item>/<repo name>` is put at `onto` (the base tip, or the tested commit of
 * the nearest item ahead in this repository) and the set's member heads are merged into it through
 * GitHub's merges API (`POST …/merges`: 201 a merge commit, 204 nothing to merge, 409 conflict).
 * The branch's tip is the tested commit; landing later moves the base branch to exactly that SHA.
 * The branch stays until the item lands or leaves the queue (`removeTestedBranch`), so the
 * evaluation can fetch the commit by name.
 *
 * `pulls?` names the heads' PRs so a conflict names the PR; `testedBranch` and
 * `removeTestedBranch` are for the caller's clean-up.
 */
import { z } from 'zod';
import { deleteBranch, gitHubMessage, putBranch } from './branch-refs.ts';
import { type GitHub, httpStatus, repoId } from './octokit.ts';

export interface TestedCommitInput {
  /** `owner/name`. */
  repo: string;
  baseBranch: string;
  /** The base tip, or the tested commit of the nearest item ahead of this one in this repository. */
  onto: string;
  /** This set's member head SHAs in the repository, in merge order. */
  heads: string[];
  itemId: string;
  /** The member PRs (`owner/repo#n`) the heads belong to, same order: a conflict names the PR. */
  pulls?: string[];
}

/** `{conflict}` names what did not merge: the PR when `pulls` was given, else the head SHA. */
export type TestedCommit = { sha: string } | { conflict: string };

const mergeSchema = z.object({ sha: z.string() });

/** The temporary branch holding an item's tested commit in one repository. */
export function testedBranch(itemId: string, repo: string): string {
  const name = repo.slice(repo.indexOf('/') + 1);
  return `tandem/queue/${itemId.replace(/[^\w.-]+/g, '-')}/${name}`;
}

export async function buildTestedCommit(gh: GitHub, a: TestedCommitInput): Promise<TestedCommit> {
  const branch = testedBranch(a.itemId, a.repo);
  await putBranch(gh, a.repo, branch, a.onto);
  let sha = a.onto;
  for (const [i, head] of a.heads.entries()) {
    const name = a.pulls?.[i] ?? head;
    try {
      const res = await gh.rest.repos.merge({
        ...repoId(a.repo),
        base: branch,
        head,
        commit_message: `Merge ${name} for the Tandem queue (item ${a.itemId}) onto ${a.baseBranch}`,
        // A 409 is a conflict, GitHub's final word: retrying (Octokit's default for 409) only waits.
        request: { retries: 0 },
      });
      // 204: the head is already in the speculative state; the tip stays.
      if (res.status === 201) sha = mergeSchema.parse(res.data).sha;
    } catch (e) {
      if (httpStatus(e) === 409) {
        await deleteBranch(gh, a.repo, branch);
        return { conflict: name };
      }
      throw new Error(`merging ${name} into ${a.repo} ${branch} failed: ${gitHubMessage(e)}`);
    }
  }
  return { sha };
}

/** Deletes an item's temporary branch in `repo` (after landing, or when the item leaves the queue). */
export async function removeTestedBranch(gh: GitHub, repo: string, itemId: string): Promise<void> {
  await deleteBranch(gh, repo, testedBranch(itemId, repo));
}
