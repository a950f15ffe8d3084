/**
 * Builds a case from `pull-requests` lines: each PR is read with `pulls.get`
 * and becomes a target `{repo, url, base: base.sha, head: head.sha, merge: true}` (the PR merged
 * onto its base, as GitHub's merge ref). The clone URL carries the token as
 * `x-access-token:<token>` so private repositories can be fetched; the caller masks the token and
 * strips it from the report.
 */
import { z } from 'zod';
import type { BranchTarget } from '../core/case.schema.ts';
import { InputError } from '../core/errors.ts';
import { type GitHubApi, readJson } from './github-client.ts';
import type { PullRef } from './inputs.ts';

const pullSchema = z.object({
  number: z.number(),
  state: z.string(),
  merged: z.boolean().nullish(),
  head: z.object({ sha: z.string(), ref: z.string() }),
  base: z.object({
    sha: z.string(),
    ref: z.string(),
    repo: z.object({ full_name: z.string(), clone_url: z.string() }),
  }),
});
export type PullRequestInfo = z.infer<typeof pullSchema>;

const label = (p: PullRef) => `${p.owner}/${p.repo}#${p.number}`;

/** One PR; 404/401/403 are input problems (wrong name or a token that cannot read it). */
export function fetchPullRequest(api: GitHubApi, ref: PullRef): Promise<PullRequestInfo> {
  return readJson(
    api,
    { label: label(ref), input: 'pull-requests', repo: `${ref.owner}/${ref.repo}` },
    (o) => o.rest.pulls.get({ owner: ref.owner, repo: ref.repo, pull_number: ref.number }),
    pullSchema,
  );
}

/** `clone_url` with the token as basic-auth credentials (http(s) only). */
export function authenticatedUrl(cloneUrl: string, token: string | undefined): string {
  if (!token) return cloneUrl;
  const url = new URL(cloneUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return cloneUrl;
  url.username = 'x-access-token';
  url.password = token;
  return url.toString();
}

/** The case targets for the PRs, in the order given; one PR per repository. */
export async function pullRequestTargets(api: GitHubApi, pulls: readonly PullRef[]): Promise<BranchTarget[]> {
  const infos = await Promise.all(pulls.map((p) => fetchPullRequest(api, p)));
  const seen = new Map<string, PullRef>();
  return infos.map((pr, i) => {
    const repo = pr.base.repo.full_name;
    const other = seen.get(repo.toLowerCase());
    if (other) {
      throw new InputError(
        `input "pull-requests": ${label(other)} and ${label(pulls[i]!)} are in the same repository; a linked change has one pull request per repository`,
        undefined,
        'pull-requests',
      );
    }
    seen.set(repo.toLowerCase(), pulls[i]!);
    return {
      repo,
      url: authenticatedUrl(pr.base.repo.clone_url, api.token),
      base: pr.base.sha,
      head: pr.head.sha,
      merge: true,
    };
  });
}

/** A readable case name: `linked change acme/api#12 acme/web#7`. */
export function linkedChangeName(pulls: readonly PullRef[]): string {
  return `linked change ${pulls.map(label).join(' ')}`;
}
