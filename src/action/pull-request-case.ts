/**
 * Builds a case from `pull-requests` lines: each PR is read with `GET /repos/{o}/{r}/pulls/{n}`
 * and becomes a target `{repo, url, base: base.sha, head: head.sha, merge: true}` (the PR merged
 * onto its base, as GitHub's merge ref). The clone URL carries the token as
 * `x-access-token:<token>` so private repositories can be fetched; the caller masks the token and
 * strips it from the report.
 */
import { z } from 'zod';
import type { BranchTarget } from '../core/case.schema.ts';
import { InfraError, InputError } from '../core/errors.ts';
import type { PullRef } from './inputs.ts';

export interface GitHubApi {
  /** REST base URL, `$GITHUB_API_URL` (https://api.github.com on github.com). */
  url: string;
  token?: string;
}

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

const ATTEMPTS = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const label = (p: PullRef) => `${p.owner}/${p.repo}#${p.number}`;

/** One PR; 404/401/403 are input problems (wrong name or a token that cannot read it). */
export async function fetchPullRequest(api: GitHubApi, ref: PullRef): Promise<PullRequestInfo> {
  const url = `${api.url.replace(/\/$/, '')}/repos/${ref.owner}/${ref.repo}/pulls/${ref.number}`;
  const headers: Record<string, string> = {
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    'user-agent': 'tandem-action',
    ...(api.token ? { authorization: `Bearer ${api.token}` } : {}),
  };
  let last = '';
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, { headers });
    } catch (err) {
      last = `cannot reach ${api.url}: ${(err as Error).message}`;
      if (attempt < ATTEMPTS) await sleep(1000 * attempt);
      continue;
    }
    if (res.ok) {
      const parsed = pullSchema.safeParse(await res.json().catch(() => undefined));
      if (parsed.success) return parsed.data;
      throw new InfraError(
        'fetch',
        `${label(ref)}: unexpected answer from ${url}: ${parsed.error.issues[0]?.message}`,
      );
    }
    const body = (await res.json().catch(() => ({}))) as { message?: string };
    const why = `${res.status}${body.message ? ` ${body.message}` : ''}`;
    // Rate limits and server errors are worth another try; the rest will not change.
    const transient =
      res.status >= 500 || res.status === 429 || res.headers.get('x-ratelimit-remaining') === '0';
    if (!transient) {
      throw new InputError(
        `input "pull-requests": ${label(ref)}: ${why} (does the "token" input read ${ref.owner}/${ref.repo}?)`,
        undefined,
        'pull-requests',
      );
    }
    last = `${label(ref)}: GitHub answered ${why}`;
    if (attempt < ATTEMPTS)
      await sleep(Math.min(10, Number(res.headers.get('retry-after')) || attempt) * 1000);
  }
  throw new InfraError('fetch', last);
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
