/**
 * Builds a case from `pull-requests` lines: each PR is read with `pulls.get`
 * and becomes a target `{repo, url, base: base.sha, head: head.sha, merge: true}` (the PR merged
 * onto its base, as GitHub's merge ref). The clone URL carries the token as
 * `x-access-token:<token>` so private repositories can be fetched; the caller masks the token and
 * strips it from the report.
 */
import type { BranchTarget } from '../core/case.schema.ts';
import { cloneUrlWithToken } from '../core/credentials.ts';
import { InputError } from '../core/errors.ts';
import { formatPullRef, type PullRef } from '../core/pull-ref.ts';
import { type PullInfo, pullInfoOf, pullRequestSchema } from '../core/pull-request.schema.ts';
import { RepoMap, repoFullName } from '../core/repo-name.ts';
import { readJson } from '../github/input-reads.ts';
import type { GitHubApi } from '../github/token-client.ts';

/** One PR; 404/401/403 are input problems (wrong name or a token that cannot read it). */
export function fetchPullRequest(api: GitHubApi, ref: PullRef): Promise<PullInfo> {
  return readJson(
    api,
    { label: formatPullRef(ref), input: 'pull-requests', repo: repoFullName(ref) },
    (o) => o.rest.pulls.get({ owner: ref.owner, repo: ref.repo, pull_number: ref.number }),
    pullRequestSchema.transform((p) => pullInfoOf(p)),
  );
}

/** The case targets for the PRs, in the order given; one PR per repository. */
export async function pullRequestTargets(api: GitHubApi, pulls: readonly PullRef[]): Promise<BranchTarget[]> {
  const infos = await Promise.all(pulls.map((p) => fetchPullRequest(api, p)));
  const seen = new RepoMap<PullRef>();
  return infos.map((pr, i) => {
    const repo = pr.repo;
    const other = seen.get(repo);
    if (other) {
      throw new InputError(
        `input "pull-requests": ${formatPullRef(other)} and ${formatPullRef(pulls[i]!)} are in the same repository; a linked change has one pull request per repository`,
        undefined,
        'pull-requests',
      );
    }
    seen.set(repo, pulls[i]!);
    return {
      repo,
      url: cloneUrlWithToken(pr.cloneUrl, api.token),
      base: pr.baseSha,
      head: pr.headSha,
      merge: true,
    };
  });
}

/** A readable case name: `linked change acme/api#12 acme/web#7`. */
export function linkedChangeName(pulls: readonly PullRef[]): string {
  return `linked change ${pulls.map(formatPullRef).join(' ')}`;
}
