/**
 * Branch references through GitHub's git API, as the queue moves them: read a tip, create or
 * reset a temporary branch, move a branch with a compare-and-swap update (`force: false`: GitHub
 * answers 422 "Update is not a fast forward" unless the new commit descends from the tip), delete
 * a branch, reset a branch backwards only if it is still where we left it (GraphQL `updateRefs`
 * with `beforeOid`: the REST API has no expected-old-SHA for a forced update), read a commit's
 * tree. Refusals of a move come back as values with GitHub's words; anything else (network, 5xx)
 * is thrown, as infrastructure trouble.
 */
import { z } from 'zod';
import { errorText } from '../core/error-text.ts';
import { type GitHub, httpStatus, repoId } from './octokit.ts';

const refSchema = z.object({ object: z.object({ sha: z.string() }) });
const commitSchema = z.object({ sha: z.string(), tree: z.object({ sha: z.string() }) });

export type RefMove = { moved: true } | { moved: false; status: number | undefined; reason: string };

/** GitHub's message for a refused request (its `message`, else the error's text). */
export function gitHubMessage(e: unknown): string {
  const data = (e as { response?: { data?: { message?: unknown } } }).response?.data;
  return typeof data?.message === 'string' ? data.message.trim() : errorText(e);
}

/** The branch's tip, or undefined when there is no such branch. */
export async function branchTip(gh: GitHub, repo: string, branch: string): Promise<string | undefined> {
  try {
    const { data } = await gh.rest.git.getRef({ ...repoId(repo), ref: `heads/${branch}` });
    return refSchema.parse(data).object.sha;
  } catch (e) {
    if (httpStatus(e) === 404) return undefined;
    throw e;
  }
}

/** Moves `branch` to `sha`; `force: false` is GitHub's compare-and-swap (fast forward only). No retries. */
export async function moveBranch(
  gh: GitHub,
  repo: string,
  branch: string,
  sha: string,
  force: boolean,
): Promise<RefMove> {
  try {
    await gh.rest.git.updateRef({
      ...repoId(repo),
      ref: `heads/${branch}`,
      sha,
      force,
      request: { retries: 0 },
    });
    return { moved: true };
  } catch (e) {
    const status = httpStatus(e);
    // 422 (not a fast forward, a rule), 409, 403 and 404 are GitHub's answer; no answer is trouble.
    if (status === undefined || status >= 500) throw e;
    return { moved: false, status, reason: gitHubMessage(e) };
  }
}

const UPDATE_REFS = `mutation($repositoryId: ID!, $refUpdates: [RefUpdate!]!) {
  updateRefs(input: { repositoryId: $repositoryId, refUpdates: $refUpdates }) { clientMutationId }
}`;
const repoSchema = z.object({ node_id: z.string() });

/**
 * Moves `branch` from `from` to `to` even backwards, atomically only if it is still at `from`: a
 * commit pushed meanwhile is never clobbered (GitHub refuses the whole update, a GraphQL error).
 */
export async function resetBranch(
  gh: GitHub,
  repo: string,
  branch: string,
  from: string,
  to: string,
): Promise<RefMove> {
  const { data } = await gh.rest.repos.get({ ...repoId(repo) });
  try {
    await gh.graphql(UPDATE_REFS, {
      repositoryId: repoSchema.parse(data).node_id,
      refUpdates: [{ name: `refs/heads/${branch}`, beforeOid: from, afterOid: to, force: true }],
    });
    return { moved: true };
  } catch (e) {
    // GraphQL errors are GitHub's answer (moved meanwhile, a rule); no answer is trouble.
    const errors = (e as { errors?: Array<{ message?: unknown }> }).errors;
    if (!Array.isArray(errors)) throw e;
    return { moved: false, status: 422, reason: errors.map((x) => String(x.message)).join('; ') };
  }
}

/** Creates `branch` at `sha`, or resets it there when it exists (a temporary branch of ours). */
export async function putBranch(gh: GitHub, repo: string, branch: string, sha: string): Promise<void> {
  try {
    await gh.rest.git.createRef({ ...repoId(repo), ref: `refs/heads/${branch}`, sha });
  } catch (e) {
    if (httpStatus(e) !== 422) throw e;
    const reset = await moveBranch(gh, repo, branch, sha, true);
    if (!reset.moved) throw new Error(`could not reset ${repo} branch ${branch}: ${reset.reason}`);
  }
}

/** Deletes `branch`; a branch already gone is fine. */
export async function deleteBranch(gh: GitHub, repo: string, branch: string): Promise<void> {
  try {
    await gh.rest.git.deleteRef({ ...repoId(repo), ref: `heads/${branch}` });
  } catch (e) {
    const s = httpStatus(e);
    if (s !== 422 && s !== 404) throw e;
  }
}

/** A commit's tree SHA. */
export async function treeOf(gh: GitHub, repo: string, sha: string): Promise<string> {
  const { data } = await gh.rest.git.getCommit({ ...repoId(repo), commit_sha: sha });
  return commitSchema.parse(data).tree.sha;
}
