/**
 * What `/tandem merge` asks GitHub: a member's pull request as it is now, the checks its base
 * branch requires (branch protection and rulesets), the checks and statuses on its head, and
 * the merge itself — pinned to the evaluated head with `sha`, so GitHub refuses (409) if the
 * head moved in between. Answers are checked with zod; refusals come back as values with
 * GitHub's reason, never as thrown errors, so the caller can stop and say why.
 */

import { z } from 'zod';
import { errorText } from '../core/error-text.ts';
import type { LivePull } from '../core/merge-command-plan.ts';
import type { PullRef } from '../core/pull-ref.ts';
import type { RepoParts } from '../core/repo-name.ts';
import type { CheckRunState, CommitStatusState } from '../core/required-checks.ts';
import { type GitHub, httpStatus } from './octokit.ts';

const livePullSchema = z.object({
  state: z.string(),
  merged: z.boolean().nullish(),
  merged_at: z.string().nullish(),
  merge_commit_sha: z.string().nullish(),
  draft: z.boolean().nullish(),
  mergeable: z.boolean().nullish(),
  mergeable_state: z.string().nullish(),
  head: z.object({ sha: z.string() }),
  base: z.object({ ref: z.string() }),
});

/** A member as GitHub shows it now, with the merge commit once merged; undefined when gone. */
export async function livePull(
  gh: GitHub,
  ref: PullRef,
): Promise<(LivePull & { baseRef: string; mergeCommitSha: string | null }) | undefined> {
  try {
    const { data } = await gh.rest.pulls.get({ owner: ref.owner, repo: ref.repo, pull_number: ref.number });
    const p = livePullSchema.parse(data);
    const merged = Boolean(p.merged || p.merged_at);
    return {
      state: p.state === 'open' ? 'open' : merged ? 'merged' : 'closed',
      headSha: p.head.sha,
      draft: p.draft ?? false,
      mergeable: p.mergeable ?? null,
      ...(p.mergeable_state ? { mergeableState: p.mergeable_state } : {}),
      baseRef: p.base.ref,
      mergeCommitSha: p.merge_commit_sha ?? null,
    };
  } catch (e) {
    const s = httpStatus(e);
    if (s === 404 || s === 403) return undefined;
    throw e;
  }
}

const contextsSchema = z.object({
  contexts: z.array(z.string()).default([]),
  checks: z.array(z.object({ context: z.string() })).default([]),
});
const branchSchema = z.object({
  protection: z.object({ required_status_checks: contextsSchema.partial().optional() }).optional(),
});
const rulesSchema = z.array(
  z.object({
    type: z.string(),
    parameters: z
      .object({ required_status_checks: z.array(z.object({ context: z.string() })).optional() })
      .loose()
      .optional(),
  }),
);

const contextsOf = (c: {
  contexts?: string[] | undefined;
  checks?: Array<{ context: string }> | undefined;
}) => [...(c.contexts ?? []), ...(c.checks ?? []).map((x) => x.context)];

/** Branch protection's required checks: none when unprotected (404). */
async function protectionChecks(gh: GitHub, repo: RepoParts, branch: string): Promise<string[]> {
  try {
    const { data } = await gh.rest.repos.getStatusChecksProtection({ ...repo, branch });
    return contextsOf(contextsSchema.parse(data));
  } catch (e) {
    const s = httpStatus(e);
    if (s === 404) return [];
    if (s !== 403) throw e;
    // The endpoint wants `administration: read`, which the App does not ask for; the branch
    // itself tells the same contexts with `contents: read`.
    return branchChecks(gh, repo, branch);
  }
}

async function branchChecks(gh: GitHub, repo: RepoParts, branch: string): Promise<string[]> {
  try {
    const { data } = await gh.rest.repos.getBranch({ ...repo, branch });
    return contextsOf(branchSchema.parse(data).protection?.required_status_checks ?? {});
  } catch (e) {
    // No such branch: nothing to require here (GitHub's merge will say what is wrong).
    if (httpStatus(e) === 404) return [];
    throw e;
  }
}

/** Rulesets' required checks on the branch: none when no ruleset applies (404 or empty). */
async function rulesetChecks(gh: GitHub, repo: RepoParts, branch: string): Promise<string[]> {
  try {
    const { data } = await gh.rest.repos.getBranchRules({ ...repo, branch, per_page: 100 });
    return rulesSchema
      .parse(data)
      .filter((r) => r.type === 'required_status_checks')
      .flatMap((r) => (r.parameters?.required_status_checks ?? []).map((c) => c.context));
  } catch (e) {
    if (httpStatus(e) === 404) return [];
    throw e;
  }
}

/** Every check context `branch` requires before a merge, from protection and rulesets. */
export async function requiredChecks(gh: GitHub, repo: RepoParts, branch: string): Promise<string[]> {
  const [protection, rules] = await Promise.all([
    protectionChecks(gh, repo, branch),
    rulesetChecks(gh, repo, branch),
  ]);
  return [...new Set([...protection, ...rules])];
}

const checkRunsSchema = z.object({
  check_runs: z.array(
    z.object({ id: z.number(), name: z.string(), status: z.string(), conclusion: z.string().nullable() }),
  ),
});
const combinedStatusSchema = z.object({
  statuses: z.array(z.object({ context: z.string(), state: z.string() })),
});

/** The check runs (latest of each name) and commit statuses on a commit. */
export async function checksOn(
  gh: GitHub,
  repo: RepoParts,
  sha: string,
): Promise<{ runs: CheckRunState[]; statuses: CommitStatusState[] }> {
  const runs = (await gh.paginate(gh.rest.checks.listForRef, {
    ...repo,
    ref: sha,
    filter: 'latest',
    per_page: 100,
  })) as unknown;
  const { data } = await gh.rest.repos.getCombinedStatusForRef({ ...repo, ref: sha, per_page: 100 });
  return {
    // `paginate` flattens the pages' `check_runs` into one list.
    runs: checkRunsSchema.parse({ check_runs: runs }).check_runs,
    statuses: combinedStatusSchema.parse(data).statuses,
  };
}

export type MergeAnswer =
  | { merged: true; sha: string }
  | { merged: false; status?: number | undefined; reason: string };

const mergedSchema = z.object({ sha: z.string(), merged: z.boolean(), message: z.string().optional() });

function messageOf(e: unknown): string {
  const data = (e as { response?: { data?: { message?: unknown } } }).response?.data;
  return typeof data?.message === 'string' ? data.message : errorText(e);
}

/** Why GitHub refused, in the words a member's comment shows. */
export function refusalReason(status: number | undefined, message: string): string {
  switch (status) {
    case 405:
      return `GitHub refused the merge: ${message}`;
    case 409:
      return `its head moved after the evaluation (GitHub: ${message})`;
    case 403:
      return `the App may not merge in this repository (GitHub: ${message}); it needs \`contents: write\``;
    case 404:
      return 'the pull request is not visible to the App';
    case undefined:
      return `GitHub did not answer the merge request (${message})`;
    default:
      return `GitHub answered ${status}: ${message}`;
  }
}

/**
 * Merges a PR at exactly `sha`. No retries: a merge is not idempotent, and a 405 or 409 will not
 * change by asking again. When the request failed without an answer, the PR is read again:
 * GitHub may have merged it before the connection broke.
 */
export async function mergePull(gh: GitHub, ref: PullRef, sha: string): Promise<MergeAnswer> {
  try {
    const { data } = await gh.rest.pulls.merge({
      owner: ref.owner,
      repo: ref.repo,
      pull_number: ref.number,
      sha,
      merge_method: 'merge',
      request: { retries: 0 },
    });
    const answer = mergedSchema.parse(data);
    if (answer.merged) return { merged: true, sha: answer.sha };
    return { merged: false, status: 200, reason: refusalReason(405, answer.message ?? 'not merged') };
  } catch (e) {
    const status = httpStatus(e);
    if (status === undefined) {
      const now = await livePull(gh, ref).catch(() => undefined);
      if (now?.state === 'merged' && now.headSha === sha && now.mergeCommitSha)
        return { merged: true, sha: now.mergeCommitSha };
    }
    return { merged: false, status, reason: refusalReason(status, messageOf(e)) };
  }
}
