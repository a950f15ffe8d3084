/**
 * Builds a case from pull request references (the Action's `pull-requests` lines, the CLI's
 * `--pr`): each PR is read with `pulls.get` and becomes a target `{repo, url, base, head:
 * head.sha, merge: true}` (the PR merged onto its base, as GitHub's merge ref). `base` is the PR's
 * `base.sha` (GitHub's view when the PR last changed), or with `baseAt: 'tip'` its base branch by
 * name, which the engine resolves to the branch's tip when it fetches: what the App merges onto
 * (`app/evaluations/change-spec.ts`), so `tandem eval --pr` rebuilds the App's case. The clone URL carries the token as
 * `x-access-token:<token>` so private repositories can be fetched; the caller masks the token and
 * strips it from the report.
 */
import type { BranchTarget } from '../core/case.schema.ts';
import { cloneUrlWithToken } from '../core/credentials.ts';
import { InputError } from '../core/errors.ts';
import { formatPullRef, type PullRef } from '../core/pull-ref.ts';
import { type PullInfo, pullInfoOf, pullRequestSchema } from '../core/pull-request.schema.ts';
import { RepoMap, repoFullName } from '../core/repo-name.ts';
import { ACTION_INPUT_NAMES, type InputNames, readJson } from './input-reads.ts';
import type { GitHubApi } from './token-client.ts';

export interface PullTargetOptions {
  /** `pr` (default): the PR's `base.sha`; `tip`: the base branch's tip now, as the App takes it. */
  baseAt?: 'pr' | 'tip';
  names?: InputNames;
}

/** One PR; 404/401/403 are input problems (wrong name or a token that cannot read it). */
export function fetchPullRequest(api: GitHubApi, ref: PullRef, names?: InputNames): Promise<PullInfo> {
  return readJson(
    api,
    {
      label: formatPullRef(ref),
      input: 'pull-requests',
      repo: repoFullName(ref),
      ...(names ? { names } : {}),
    },
    (o) => o.rest.pulls.get({ owner: ref.owner, repo: ref.repo, pull_number: ref.number }),
    pullRequestSchema.transform((p) => pullInfoOf(p)),
  );
}

/** The case targets for the PRs, in the order given; one PR per repository. */
export async function pullRequestTargets(
  api: GitHubApi,
  pulls: readonly PullRef[],
  opts: PullTargetOptions = {},
): Promise<BranchTarget[]> {
  const names = opts.names ?? ACTION_INPUT_NAMES;
  const infos = await Promise.all(pulls.map((p) => fetchPullRequest(api, p, opts.names)));
  const seen = new RepoMap<PullRef>();
  for (const [i, pr] of infos.entries()) {
    const other = seen.get(pr.repo);
    if (other) {
      throw new InputError(
        `${names.pulls}: ${formatPullRef(other)} and ${formatPullRef(pulls[i]!)} are in the same repository; a linked change has one pull request per repository`,
        undefined,
        'pull-requests',
      );
    }
    seen.set(pr.repo, pulls[i]!);
  }
  return infos.map((pr) => ({
    repo: pr.repo,
    url: cloneUrlWithToken(pr.cloneUrl, api.token),
    base: opts.baseAt === 'tip' ? pr.baseRef : pr.baseSha,
    head: pr.headSha,
    merge: true,
  }));
}

/** A readable case name: `linked change acme/api#12 acme/web#7`. */
export function linkedChangeName(pulls: readonly PullRef[]): string {
  return `linked change ${pulls.map(formatPullRef).join(' ')}`;
}
