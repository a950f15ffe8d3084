/**
 * `/tandem merge` as decisions: in which order the members of a resolved linked set are merged
 * (the suite's `merge_order`, then each PR's dependencies first by its links), what keeps a member from being merged at all
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
  /** The branch it was evaluated onto (unknown for evaluations recorded before it was kept). */
  baseRef?: string;
}

/**
 * The members in merge order (`mergePlan` without links): repositories listed in `mergeOrder`
 * first, in its order; the rest after, as the evaluation listed them (the sort is stable).
 */
export function mergeSequence(
  members: readonly EvaluatedMember[],
  mergeOrder: readonly string[],
): EvaluatedMember[] {
  return mergePlan(members, mergeOrder, () => []).sequence;
}

export interface MergePlan {
  sequence: EvaluatedMember[];
  /** Members whose links form a cycle: they follow `merge_order` (or the listed order) instead. */
  cycle: string[];
}

/**
 * The merge order: the suite's `merge_order` ranks repositories when it has them; members of the
 * same rank (all of them, without `merge_order`) go dependencies first, by the links each makes
 * (`dependsOn(key)`: the PRs it links to). Members in a cycle of links have no such order: they
 * keep `merge_order`'s rank and the listed order, and the plan names them so the comment can say.
 */
export function mergePlan(
  members: readonly EvaluatedMember[],
  mergeOrder: readonly string[],
  dependsOn: (key: string) => readonly string[],
): MergePlan {
  const rank = new Map(mergeOrder.map((r, i) => [repoKey(r), i] as const));
  const rankOf = (m: EvaluatedMember) => rank.get(repoKey(repoOfPullKey(m.key))) ?? mergeOrder.length;
  const ranked = [...members].sort((a, b) => rankOf(a) - rankOf(b));
  const sequence: EvaluatedMember[] = [];
  const cycle: string[] = [];
  for (let i = 0; i < ranked.length; ) {
    let j = i;
    while (j < ranked.length && rankOf(ranked[j]!) === rankOf(ranked[i]!)) j++;
    const { order, cyclic } = dependenciesFirst(ranked.slice(i, j), dependsOn);
    sequence.push(...order);
    cycle.push(...cyclic);
    i = j;
  }
  return { sequence, cycle };
}

/** Kahn's algorithm, stable: each round takes the first listed member whose dependencies are placed. */
function dependenciesFirst(group: readonly EvaluatedMember[], dependsOn: (key: string) => readonly string[]) {
  const inGroup = new Set(group.map((m) => m.key));
  const needs = new Map(
    group.map((m) => [m.key, new Set(dependsOn(m.key).filter((k) => inGroup.has(k) && k !== m.key))]),
  );
  const order: EvaluatedMember[] = [];
  const left = [...group];
  while (left.length > 0) {
    const next = left.findIndex((m) => needs.get(m.key)!.size === 0);
    if (next < 0) break;
    const [m] = left.splice(next, 1);
    order.push(m!);
    for (const n of needs.values()) n.delete(m!.key);
  }
  // What is left waits on itself: a cycle (and what depends on it), in the listed order.
  return { order: [...order, ...left], cyclic: left.map((m) => m.key) };
}

/** The plan's note for the merge comment, when links could not decide the whole order. */
export function cycleNote(plan: MergePlan, mergeOrder: readonly string[]): string | undefined {
  if (plan.cycle.length === 0) return undefined;
  const fallback = mergeOrder.length > 0 ? "the suite's merge_order" : 'the order the evaluation listed them';
  return `the Depends-On links of ${plan.cycle.join(', ')} form a cycle, so they are merged in ${fallback}`;
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
  /**
   * GitHub's `mergeable_state`: `blocked` when its branch rules are not met (a required review
   * missing, a required check not passing), which GitHub would refuse the merge for.
   */
  mergeableState?: string;
  /** The branch it targets now. */
  baseRef?: string;
}

const short = (sha: string) => sha.slice(0, 7);

/** Why a member cannot be merged as evaluated (a clause about it: "its head moved …"), or undefined. */
export function memberRefusal(m: EvaluatedMember, live: LivePull | undefined): string | undefined {
  if (!live) return 'it is not found or not visible to the App';
  if (live.state === 'merged') return 'it was already merged outside /tandem merge';
  if (live.state === 'closed') return 'it is closed';
  if (live.headSha !== m.headSha)
    return `its head moved to ${short(live.headSha)} after the evaluation (of ${short(m.headSha)}): it must be evaluated again`;
  if (m.baseRef !== undefined && live.baseRef !== undefined && live.baseRef !== m.baseRef)
    return `it now targets ${live.baseRef} but was evaluated on ${m.baseRef}: it must be evaluated again`;
  if (live.draft) return 'it is a draft';
  if (live.mergeable === false) return 'it has conflicts with its base branch';
  if (live.mergeableState === 'blocked')
    return 'GitHub reports it blocked by its branch rules (a required review or check is missing)';
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
export const mergeOutcomeSchema = z.enum(['merged', 'refused', 'partial']);
export type MergeOutcome = z.output<typeof mergeOutcomeSchema>;

export function mergeOutcome(steps: readonly MergeStep[]): MergeOutcome {
  const merged = steps.filter((s) => s.result === 'merged').length;
  if (merged === steps.length && steps.length > 0) return 'merged';
  return merged === 0 ? 'refused' : 'partial';
}
