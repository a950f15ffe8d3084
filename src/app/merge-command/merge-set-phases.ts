/**
 * The phases of the member-by-member `/tandem merge` (`merge-set.ts`) that ask GitHub: the
 * requester's rights on every member's repository, the preflight of every member (open, at its
 * evaluated head, its branch rules and required checks met) before anything merges, and the
 * merges in order, each pinned to its evaluated head. Each marks what it decided in `steps`.
 */
import type { EvaluatedMember, EvaluationFacts, MergeStep } from '../../core/merge-command-plan.ts';
import { memberRefusal } from '../../core/merge-command-plan.ts';
import { parsePullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import { describeBlockingCheck, judgeRequiredChecks } from '../../core/required-checks.ts';
import type { GitHubPort } from '../port/github-port.ts';
import { rulesRefusal } from './branch-rules-gate.ts';

/** What the merge follows: the set's latest evaluation, its members in merge order, what stays merged. */
export interface MergeBasis {
  evaluationId: number;
  /** The evaluation's members (or, recorded before members were kept, the set as known now). */
  evaluated: EvaluatedMember[];
  /** Every member to merge or already merged, in merge order. */
  sequence: EvaluatedMember[];
  /** Members merged by an earlier attempt, by key. */
  kept: Map<string, MergeStep>;
  /** About the order (links in a cycle), for the comment. */
  notes: string[];
  /** The evaluation's state and verdict, and whether it recorded its members. */
  facts: EvaluationFacts & { recordedMembers: boolean };
}

/**
 * Phase 3: rights on every member's repository (write access where the command was written is
 * not write access everywhere). Marks the members refused in `steps`; the reason, or undefined.
 */
export async function rightsRefusal(
  gh: GitHubPort,
  basis: MergeBasis,
  steps: MergeStep[],
  user: string,
): Promise<string | undefined> {
  const denied = await reposDenied(gh, basis.sequence, basis.kept, user);
  if (denied.size === 0) return undefined;
  const refused = basis.sequence.filter((m) => denied.has(repoOfPullKey(m.key)));
  basis.sequence.forEach((m, i) => {
    const repo = repoOfPullKey(m.key);
    if (denied.has(repo))
      steps[i] = { ...m, result: 'refused', reason: `${user} has no write access to ${repo}` };
  });
  return `${user} may not merge ${refused.map((m) => m.key).join(', ')} (no write access)`;
}

/**
 * Phase 4: every member read again before anything merges — open, mergeable, at its evaluated
 * head, its branch rules met and its required checks passing. Marks refusals in `steps`;
 * returns the members' live base branches, or undefined when one was refused.
 */
export async function preflight(
  gh: GitHubPort,
  basis: MergeBasis,
  steps: MergeStep[],
): Promise<string[] | undefined> {
  const live = await Promise.all(basis.sequence.map((m) => gh.livePull(parsePullKey(m.key))));
  let refusedAny = false;
  for (const [i, m] of basis.sequence.entries()) {
    const now = live[i];
    const earlier = basis.kept.get(m.key);
    // Merged by an earlier attempt (a retry after a half-merge): kept.
    if (earlier && now?.state === 'merged') {
      steps[i] = earlier;
      continue;
    }
    // Branch rules first while the member is open at its evaluated head: their reason (a review
    // missing, the merge queue) says more than GitHub's `blocked`.
    const current = now?.state === 'open' && now.headSha === m.headSha;
    const reason =
      (current ? await rulesRefusal(gh, m, now.baseRef) : undefined) ??
      memberRefusal(m, now) ??
      (await checksRefusal(gh, m, now!.baseRef));
    if (reason) {
      steps[i] = { ...m, result: 'refused', reason };
      refusedAny = true;
    }
  }
  return refusedAny ? undefined : live.map((l) => l?.baseRef ?? '');
}

/** Phase 5: merges member by member, recording each merge at once; stops at the first refusal. */
export async function mergeInOrder(
  gh: GitHubPort,
  basis: MergeBasis,
  steps: MergeStep[],
  baseRefs: readonly string[],
  recorded: () => Promise<void> | void,
): Promise<void> {
  for (const [i, m] of basis.sequence.entries()) {
    if (steps[i]!.result === 'merged') continue;
    const reason = await mergeOne(gh, m, baseRefs[i]!, (sha) => {
      steps[i] = { ...m, result: 'merged', mergeSha: sha };
    });
    if (reason !== undefined) {
      steps[i] = { ...m, result: 'refused', reason };
      return;
    }
    // Each merge is on record at once: a crash after it still leaves the truth in the store.
    await recorded();
  }
}

/** Repositories of members still to merge where `user` has no write access. */
async function reposDenied(
  gh: GitHubPort,
  sequence: readonly EvaluatedMember[],
  kept: ReadonlyMap<string, MergeStep>,
  user: string,
): Promise<Set<string>> {
  const repos = [...new Set(sequence.filter((m) => !kept.has(m.key)).map((m) => repoOfPullKey(m.key)))];
  const allowed = await Promise.all(repos.map((r) => gh.canWrite(r, user)));
  return new Set(repos.filter((_, i) => !allowed[i]));
}

/** Why a member's required checks (as GitHub reports them on its head) keep it from merging. */
async function checksRefusal(
  gh: GitHubPort,
  m: EvaluatedMember,
  baseRef: string,
): Promise<string | undefined> {
  const repo = repoOfPullKey(m.key);
  try {
    const required = await gh.requiredChecks(repo, baseRef);
    if (required.length === 0) return undefined;
    const { runs, statuses } = await gh.checksOn(repo, m.headSha);
    const judged = judgeRequiredChecks(required, runs, statuses);
    return judged.pass ? undefined : describeBlockingCheck(judged.checks);
  } catch (e) {
    return `its required checks could not be read (${(e as Error).message})`;
  }
}

/** Checks again (they may change after the preflight), then merges one member; the refusal reason, or undefined once merged. */
async function mergeOne(
  gh: GitHubPort,
  m: EvaluatedMember,
  baseRef: string,
  merged: (sha: string) => void,
): Promise<string | undefined> {
  const blocked = await checksRefusal(gh, m, baseRef);
  if (blocked) return blocked;
  const answer = await gh.mergePull(parsePullKey(m.key), m.headSha);
  if (!answer.merged) return answer.reason;
  merged(answer.sha);
  return undefined;
}
