/**
 * The parts of a `merge_group` webhook Tandem relies on, validated with zod. GitHub's merge
 * queue builds a temporary branch `gh-readonly-queue/<base>/pr-<N>-<sha>` whose head commit is
 * the base with the queued PRs merged in (PR #N last) and asks every required check for a
 * verdict on that commit (`checks_requested`); `destroyed` says the group is gone (merged,
 * dequeued, or invalidated by an entry ahead of it leaving the queue).
 */
import { z } from 'zod';

const sha = z.string().regex(/^[0-9a-f]{40}$/, 'expected a 40-character commit SHA');

/**
 * `refs/heads/gh-readonly-queue/<base branch>/pr-<N>-<sha>`: N is the PR this group was built
 * for (the last one in it). The base branch may contain slashes, so it is everything between
 * the prefix and the last `/pr-`.
 */
const QUEUE_REF = /^refs\/heads\/gh-readonly-queue\/(.+)\/pr-([1-9]\d{0,9})-[0-9a-f]{40}$/;

export interface QueueRef {
  /** The branch the queue merges into, without `refs/heads/`. */
  baseBranch: string;
  /** The pull request this merge group was created for. */
  pullNumber: number;
}

/** The PR number and base branch a merge queue ref names, or undefined for any other ref. */
export function parseQueueRef(ref: string): QueueRef | undefined {
  const m = QUEUE_REF.exec(ref);
  if (!m) return undefined;
  const pullNumber = Number(m[2]);
  return Number.isSafeInteger(pullNumber) ? { baseBranch: m[1]!, pullNumber } : undefined;
}

const groupSchema = z.object({
  head_sha: sha,
  head_ref: z.string().startsWith('refs/heads/', 'expected a branch ref'),
  base_sha: sha,
  base_ref: z.string().startsWith('refs/heads/', 'expected a branch ref'),
});

export const mergeGroupPayloadSchema = z.object({
  action: z.enum(['checks_requested', 'destroyed']),
  reason: z.enum(['merged', 'invalidated', 'dequeued']).optional(),
  merge_group: groupSchema,
  repository: z.object({ name: z.string().min(1), owner: z.object({ login: z.string().min(1) }) }),
  installation: z.object({ id: z.number().int() }),
});

/** A merge group as Tandem works with it. */
export interface MergeGroup {
  owner: string;
  repo: string;
  installationId: number;
  /** The queued merge commit: the check run goes here, and the repository is taken at it. */
  headSha: string;
  headRef: string;
  /** The base branch tip the group was built on: the repository's base state. */
  baseSha: string;
  /** Without `refs/heads/`. */
  baseBranch: string;
  /** From `headRef`; undefined when the ref does not have the merge queue's form. */
  pullNumber: number | undefined;
}

export type MergeGroupEvent =
  | { ok: true; action: 'checks_requested'; group: MergeGroup }
  | { ok: true; action: 'destroyed'; group: MergeGroup; reason: string }
  | { ok: false; error: string };

/** Parses a `merge_group` delivery; a payload without the fields Tandem needs says which. */
export function parseMergeGroupEvent(payload: unknown): MergeGroupEvent {
  const parsed = mergeGroupPayloadSchema.safeParse(payload);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'payload';
    return { ok: false, error: `${where}: ${issue?.message ?? 'invalid'}` };
  }
  const p = parsed.data;
  const group: MergeGroup = {
    owner: p.repository.owner.login,
    repo: p.repository.name,
    installationId: p.installation.id,
    headSha: p.merge_group.head_sha,
    headRef: p.merge_group.head_ref,
    baseSha: p.merge_group.base_sha,
    baseBranch: p.merge_group.base_ref.slice('refs/heads/'.length),
    pullNumber: parseQueueRef(p.merge_group.head_ref)?.pullNumber,
  };
  return p.action === 'destroyed'
    ? { ok: true, action: 'destroyed', group, reason: p.reason ?? 'destroyed' }
    : { ok: true, action: 'checks_requested', group };
}

/** One merge group: the same commit in the same repository is the same group. */
export function mergeGroupKey(g: Pick<MergeGroup, 'owner' | 'repo' | 'headSha'>): string {
  return `${g.owner}/${g.repo}@${g.headSha}`;
}
