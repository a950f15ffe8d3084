/**
 * Pull requests, branches and repositories as the linked-change resolver needs them.
 */
import type { PullRef } from '../core/pull-ref.ts';
import { type PullInfo, pullInfoOf } from '../core/pull-request.schema.ts';
import type { RepoParts } from '../core/repo-name.ts';
import { type RepoVisibility, visibilityOf } from '../core/repo-visibility.ts';
import { type GitHub, httpStatus } from './octokit.ts';

/** A PR, or undefined when it does not exist or the installation cannot see it. */
export async function getPull(gh: GitHub, ref: PullRef): Promise<PullInfo | undefined> {
  try {
    const { data } = await gh.rest.pulls.get({ owner: ref.owner, repo: ref.repo, pull_number: ref.number });
    return pullInfoOf(data);
  } catch (e) {
    const s = httpStatus(e);
    if (s === 404 || s === 403) return undefined;
    throw e;
  }
}

/** The current tip of a branch: the base a member's head is merged onto. */
export async function branchTip(gh: GitHub, repo: RepoParts, branch: string): Promise<string> {
  const { data } = await gh.rest.repos.getBranch({ ...repo, branch });
  return data.commit.sha;
}

export async function getRepo(
  gh: GitHub,
  repo: RepoParts,
): Promise<{ cloneUrl: string; defaultBranch: string; visibility: RepoVisibility | undefined }> {
  const { data } = await gh.rest.repos.get({ owner: repo.owner, repo: repo.repo });
  return { cloneUrl: data.clone_url, defaultBranch: data.default_branch, visibility: visibilityOf(data) };
}

/** Open PRs of a repository whose head branch has this name (opt-in grouping by branch). */
export async function openPullsWithHead(gh: GitHub, repo: RepoParts, headRef: string): Promise<PullInfo[]> {
  const { data } = await gh.rest.pulls.list({ ...repo, state: 'open', head: `${repo.owner}:${headRef}` });
  return data.map((p) => pullInfoOf(p)).filter((p) => p.headRef === headRef);
}

/**
 * Reverse lookup through search, for PRs the link index has not seen: open PRs in the
 * organization whose body mentions this one. Search is a hint; the caller re-reads each hit.
 * Undefined: search refused or failed (nothing to remember as an answer).
 */
export async function searchLinkingPulls(
  gh: GitHub,
  org: string,
  to: PullRef,
): Promise<PullRef[] | undefined> {
  // Both ways users write a link, `owner/name#N` and the PR's URL path, in one query: search
  // allows 30 requests a minute, so the App spaces them 2 s apart.
  const phrases = [`${to.owner}/${to.repo}#${to.number}`, `${to.owner}/${to.repo}/pull/${to.number}`];
  const q = `${phrases.map((p) => `"${p}"`).join(' OR ')} org:${org} is:pr is:open in:body`;
  try {
    const { data } = await gh.request('GET /search/issues', { q, per_page: 50 });
    const out: PullRef[] = [];
    for (const item of data.items) {
      const m = /\/repos\/([^/]+)\/([^/]+)$/.exec(item.repository_url);
      if (m && item.pull_request) out.push({ owner: m[1]!, repo: m[2]!, number: item.number });
    }
    return out;
  } catch (e) {
    // Search is best effort: a 422 (query rejected) or 403 leaves the index as the only source.
    const s = httpStatus(e);
    if (s === 422 || s === 403 || s === 404) return undefined;
    throw e;
  }
}
