/**
 * The pull request as GitHub's REST API and webhooks send it: only the fields Tandem relies on,
 * checked rather than assumed, and the domain view of it (PullInfo). One schema for the GitHub
 * port (`src/github/pull-requests.ts`, the App's webhooks) and the Action's case builder. Pure.
 */
import { z } from 'zod';
import type { PullRef } from './pull-ref.ts';
import { type RepoVisibility, visibilityOf } from './repo-visibility.ts';

export const pullRequestSchema = z.object({
  number: z.number().int().positive(),
  state: z.string(),
  merged: z.boolean().nullish(),
  merged_at: z.string().nullish(),
  title: z.string(),
  body: z.string().nullish(),
  html_url: z.string(),
  user: z.object({ login: z.string() }).nullish(),
  head: z.object({
    sha: z.string(),
    ref: z.string(),
    // Null when the fork it came from was deleted.
    repo: z.object({ full_name: z.string() }).nullish(),
  }),
  base: z.object({
    sha: z.string(),
    ref: z.string(),
    repo: z.object({
      name: z.string(),
      full_name: z.string(),
      owner: z.object({ login: z.string() }),
      clone_url: z.string(),
      private: z.boolean().nullish(),
      visibility: z.string().nullish(),
    }),
  }),
});

export type PullState = 'open' | 'closed' | 'merged';

export interface PullInfo {
  ref: PullRef;
  state: PullState;
  title: string;
  body: string | null;
  headSha: string;
  headRef: string;
  /**
   * `owner/name` of the repository the head branch lives in: the base repository for a branch
   * PR, a fork otherwise; undefined when GitHub did not say or the fork is gone.
   */
  headRepo?: string;
  /** The base branch's tip when GitHub sent the PR (the Action merges onto this). */
  baseSha: string;
  baseRef: string;
  /** `owner/name` of the base repository, as GitHub spells it. */
  repo: string;
  htmlUrl: string;
  /** The base repository's clone URL (the head of a same-repository PR lives there too). */
  cloneUrl: string;
  /** Who opened it: whether its links count for the repositories they point at depends on them. */
  author?: string;
  /** The base repository's visibility, when GitHub sent it. */
  visibility?: RepoVisibility;
}

/** The domain view of a PR payload; throws a ZodError naming the field when it is something else. */
export function pullInfoOf(payload: unknown): PullInfo {
  const p = pullRequestSchema.parse(payload);
  const merged = Boolean(p.merged || p.merged_at);
  const visibility = visibilityOf(p.base.repo);
  return {
    ref: { owner: p.base.repo.owner.login, repo: p.base.repo.name, number: p.number },
    state: p.state === 'open' ? 'open' : merged ? 'merged' : 'closed',
    title: p.title,
    body: p.body ?? null,
    headSha: p.head.sha,
    headRef: p.head.ref,
    ...(p.head.repo ? { headRepo: p.head.repo.full_name } : {}),
    baseSha: p.base.sha,
    baseRef: p.base.ref,
    repo: p.base.repo.full_name,
    htmlUrl: p.html_url,
    cloneUrl: p.base.repo.clone_url,
    ...(p.user ? { author: p.user.login } : {}),
    ...(visibility ? { visibility } : {}),
  };
}
