/**
 * `/tandem merge` as decisions: in which order the members of a resolved linked set are merged
 * (the suite's `merge_order`, producers first), what keeps a member from being merged at all
 * (it moved, closed or conflicts since its evaluation), and what an attempt left behind. The
 * App asks GitHub and merges; every rule it follows is here. Pure.
 */
import { z } from 'zod';
import { repoOfPullKey } from './pull-ref.ts';
import { repoKey } from './repo-name.ts';

/** A member as its evaluation saw it: PR key and the head SHA it evaluated. */
export interface EvaluatedMember {
  key: string;
  headSha: string;
}

/**
 * The members in merge order: repositories listed in `mergeOrder` first, in its order; the rest
 * after, as the evaluation listed them (the sort is stable).
 */
export function mergeSequence(
  members: readonly EvaluatedMember[],
  mergeOrder: readonly string[],
): EvaluatedMember[] {
  const rank = new Map(mergeOrder.map((r, i) => [repoKey(r), i] as const));
  const rankOf = (m: EvaluatedMember) => rank.get(repoKey(repoOfPullKey(m.key))) ?? mergeOrder.length;
  return [...members].sort((a, b) => rankOf(a) - rankOf(b));
}

/** What the evaluation store says about the set's latest evaluation. */
export interface EvaluationFacts {
  state: 'queued' | 'running' | 'published' | 'superseded' | 'failed';
  /** The report's outcome, when one was published. */
  outcome: 'resolved' | 'unresolved' | 'error' | null;
}

/** Why the set cannot be merged as evaluated, or undefined when its evaluation allows it. */
export function evaluationRefusal(e: EvaluationFacts | undefined): string | undefined {
  if (!e) return 'the linked change has not been evaluated yet';
  if (e.state === 'queued' || e.state === 'running')
    return 'an evaluation is under way: wait for its verdict';
  if (e.state !== 'published' || e.outcome === null)
    return 'the latest evaluation ended without a verdict: comment /tandem run first';
  if (e.outcome === 'error')
    return 'the latest evaluation hit an infrastructure error, which is not a verdict: comment /tandem run first';
  if (e.outcome !== 'resolved') return 'the linked change is not resolved';
  return undefined;
}

/** A member's pull request as GitHub shows it at command time. */
export interface LivePull {
  state: 'open' | 'closed' | 'merged';
  headSha: string;
  draft: boolean;
  /** GitHub's `mergeable`: null while GitHub is still computing it. */
  mergeable: boolean | null;
}

const short = (sha: string) => sha.slice(0, 7);

/** Why a member cannot be merged as evaluated (a clause about it: "its head moved …"), or undefined. */
export function memberRefusal(m: EvaluatedMember, live: LivePull | undefined): string | undefined {
  if (!live) return 'it is not found or not visible to the App';
  if (live.state === 'merged') return 'it was already merged outside /tandem merge';
  if (live.state === 'closed') return 'it is closed';
  if (live.headSha !== m.headSha)
    return `its head moved to ${short(live.headSha)} after the evaluation (of ${short(m.headSha)}): it must be evaluated again`;
  if (live.draft) return 'it is a draft';
  if (live.mergeable === false) return 'it has conflicts with its base branch';
  return undefined;
}

/** Evaluated members against the set as the link index knows it now: who joined, who left. */
export function setDrift(evaluated: readonly string[], current: readonly string[]): string | undefined {
  const joined = current.filter((k) => !evaluated.includes(k));
  if (joined.length === 0) return undefined;
  return `${joined.join(', ')} joined the linked change after its evaluation: it must be evaluated again`;
}

export const mergeStepSchema = z.object({
  key: z.string(),
  headSha: z.string(),
  result: z.enum(['merged', 'refused', 'not-attempted']),
  /** The merge commit, for a merged member. */
  mergeSha: z.string().optional(),
  /** Why it was refused. */
  reason: z.string().optional(),
});
export type MergeStep = z.infer<typeof mergeStepSchema>;

/**
 * What an attempt left: `merged` (every member), `refused` (nothing merged), `partial` (some
 * merged, then a refusal: the set is half-merged, which the comment must make loud).
 */
export type MergeOutcome = 'merged' | 'refused' | 'partial';

export function mergeOutcome(steps: readonly MergeStep[]): MergeOutcome {
  const merged = steps.filter((s) => s.result === 'merged').length;
  if (merged === steps.length && steps.length > 0) return 'merged';
  return merged === 0 ? 'refused' : 'partial';
}
