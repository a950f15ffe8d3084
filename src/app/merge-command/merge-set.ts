/**
 * `/tandem merge` for organizations on `executor: actions` (the others' enters the merge queue,
 * `queue-command.ts`): merges a resolved linked change member by member, producers first, and
 * says on every member what happened, in named phases: the basis (evaluation and merge order),
 * the set's refusals, the rights, the preflight of every member, then the merges in order. The rules are core's (`merge-command-plan.ts`, `required-checks.ts`);
 * GitHub is asked through `github/merge-pulls.ts`; the words are `report/merge-command-status.ts`'s.
 *
 * Before anything merges: the set's latest evaluation must be published and resolved, the set
 * must not have grown since, and every member must still be open at its evaluated head and meet
 * its base branch's rules (reviews, code owners, signatures, a merge queue: `branch-rules-gate.ts`).
 * Then each member in turn must pass its base branch's required checks and is merged pinned to
 * its evaluated head; the first refusal stops the attempt, and every member's comment names the
 * PR, the reason, what is merged and what was not attempted; each page sees only what it may
 * (core/page-privacy.ts). The attempt and each step are recorded
 * as they happen (`store.merges`): a repeated command on a merged set says so, a second one while
 * one runs is refused, and a retry after a half-merge keeps what merged.
 */
import { scrubCredentials } from '../../core/credentials.ts';
import {
  cycleNote,
  type EvaluatedMember,
  evaluationRefusal,
  type MergeStep,
  mergeOutcome,
  mergePlan,
  setDrift,
} from '../../core/merge-command-plan.ts';
import { itemRank, leastPrivate, pageRank, pageSees, statusForPage } from '../../core/page-privacy.ts';
import { parsePullKey, pullKey } from '../../core/pull-ref.ts';
import type { RepoVisibility } from '../../core/repo-visibility.ts';
import { MERGE_MARKER } from '../../github/sticky-comment.ts';
import { type MergeStatus, renderMergeStatus } from '../../report/merge-command-status.ts';
import { markCommentsMerged } from '../evaluations/sticky-comments.ts';
import type { GitHubPort } from '../port/github-port.ts';
import type { Store } from '../store/store.ts';
import { underMergeCommentLease } from './merge-comment-lease.ts';
import { type MergeBasis, mergeInOrder, preflight, rightsRefusal } from './merge-set-phases.ts';

export interface MergeRequest {
  /** The PR the command was written on. */
  seed: string;
  /** The linked set around it as the link index knows it now (the service's view). */
  linked: string[];
  requestedBy: string;
}

/** `busy`: another `/tandem merge` of this set is running; nothing was done or said. */
export type MergeCommandResult = 'done' | 'busy';

type Log = { warn: (o: object, m: string) => void };

async function tell(
  gh: GitHubPort,
  store: Store,
  keys: readonly string[],
  status: MergeStatus,
  log: Log,
  named: readonly string[] = keys,
): Promise<void> {
  const all = [...new Set([...keys, ...named, ...status.steps.map((s) => s.key)])];
  const visibility = await visibilities(store, all);
  for (const key of keys) {
    const ref = parsePullKey(key);
    // Each page its own text: nothing of a PR more private than it (core/page-privacy.ts).
    const sees = pageSees(pageRank(visibility.get(key)), (k) => itemRank(visibility.get(k)));
    const body = renderMergeStatus(statusForPage(status, sees, all));
    try {
      // Under a lease on the PR's merge comment: two replicas saying at once never both create it.
      await underMergeCommentLease(store, key, () => gh.upsertComment(ref, body, MERGE_MARKER));
    } catch (e) {
      // One member's comment failing must not keep the others from hearing about the merge.
      log.warn({ err: e, pull: key }, 'could not write the merge comment');
    }
  }
  // Merged: the verdict comment says so and no longer offers a re-run.
  if (status.outcome === 'merged')
    await markCommentsMerged(gh, keys, status.requestedBy, store.comments).catch((e) =>
      log.warn({ err: e }, 'could not mark the verdict comments merged'),
    );
}

/** Each PR's visibility as the index recorded it, read ahead for the pure page rules. */
async function visibilities(
  store: Store,
  keys: Iterable<string>,
): Promise<Map<string, RepoVisibility | undefined>> {
  const out = new Map<string, RepoVisibility | undefined>();
  for (const k of keys) if (!out.has(k)) out.set(k, (await store.pulls.facts(k))?.visibility);
  return out;
}

const notAttempted = (m: EvaluatedMember): MergeStep => ({ ...m, result: 'not-attempted' });

/** Phase 1: the evaluation the merge follows, and the merge order; undefined when there is none. */
export async function mergeBasis(store: Store, req: MergeRequest): Promise<MergeBasis | undefined> {
  // The seed too: once merged it has left its own set as the index knows it.
  const evaluation = await store.evaluations.latestCovering([req.seed, ...req.linked]);
  if (!evaluation) return undefined;
  const verdict = await store.evaluations.verdict(evaluation.id);
  const evaluated: EvaluatedMember[] = [];
  if (evaluation.members.length > 0) evaluated.push(...evaluation.members);
  else
    for (const key of new Set([req.seed, ...req.linked]))
      evaluated.push({ key, headSha: (await store.pulls.get(key))?.headSha ?? '' });
  const kept = await keptMerges(store, evaluation.id, evaluated);
  // Merged neighbours carried into the comment are named on every member's page: only those
  // every member may see (a private PR merged by its own set never shows on a public one).
  const visibility = await visibilities(store, [...evaluated.map((m) => m.key), ...kept.keys()]);
  const page = leastPrivate(evaluated.map((m) => pageRank(visibility.get(m.key))));
  const sees = pageSees(page, (key) => itemRank(visibility.get(key)));
  const carried = [...kept.values()].filter((s) => !evaluated.some((m) => m.key === s.key) && sees(s.key));
  const mergeOrder = verdict?.mergeOrder ?? [];
  // Dependencies first, by the links each member makes; `merge_order` ranks repositories first.
  const links = new Map<string, string[]>();
  for (const m of [...evaluated, ...carried]) links.set(m.key, (await store.links.from(m.key)).map(pullKey));
  const plan = mergePlan([...evaluated, ...carried], mergeOrder, (key) => links.get(key) ?? []);
  return {
    evaluationId: evaluation.id,
    evaluated,
    sequence: plan.sequence,
    kept,
    notes: [cycleNote(plan, mergeOrder)].filter((n): n is string => n !== undefined),
    facts: {
      state: evaluation.state,
      outcome: verdict?.outcome ?? null,
      recordedMembers: evaluation.members.length > 0,
    },
  };
}

/** Phase 2: why the whole set may not merge (evaluation not resolved, the set grew); [] when it may. */
export function setRefusals(basis: MergeBasis, linked: readonly string[]): string[] {
  return [
    evaluationRefusal({ state: basis.facts.state, outcome: basis.facts.outcome }),
    basis.facts.recordedMembers
      ? setDrift(
          basis.sequence.map((m) => m.key),
          linked,
        )
      : undefined,
  ].filter((r): r is string => r !== undefined);
}

export async function mergeLinkedSet(
  store: Store,
  gh: GitHubPort,
  req: MergeRequest,
  log: Log,
): Promise<MergeCommandResult> {
  const basis = await mergeBasis(store, req);
  // Every PR the texts may name: each page's comment leaves out those more private than it.
  const say = (keys: readonly string[], st: Omit<MergeStatus, 'requestedBy'>) =>
    tell(
      gh,
      store,
      keys,
      { ...st, requestedBy: req.requestedBy, ...(basis?.notes.length ? { notes: basis.notes } : {}) },
      log,
      [req.seed, ...req.linked],
    );
  if (!basis) {
    await say([req.seed], { outcome: 'refused', reasons: [evaluationRefusal(undefined)!], steps: [] });
    return 'done';
  }
  const everyone = basis.sequence.map((m) => m.key);
  // One step in the store (whichever replica asks): merged already, running, or begun here.
  const start = await store.merges.start(basis.evaluationId, req.requestedBy);
  if ('merged' in start) {
    await say(everyone, { outcome: 'merged', steps: start.merged.steps, alreadyMerged: true });
    return 'done';
  }
  if ('running' in start) return 'busy';
  const attempt = start.started;
  // What earlier attempts merged stays merged, whatever this attempt does.
  const steps: MergeStep[] = basis.sequence.map((m) => basis.kept.get(m.key) ?? notAttempted(m));
  const finish = async (reasons: string[] = []) => {
    const outcome = mergeOutcome(steps);
    await store.merges.update(attempt, outcome, steps);
    await say(everyone, { outcome, steps, reasons });
    return 'done' as const;
  };
  try {
    // The whole set first: nothing merges unless all of it can.
    const refusals = setRefusals(basis, req.linked);
    if (refusals.length > 0) return await finish(refusals);
    const denied = await rightsRefusal(gh, basis, steps, req.requestedBy);
    if (denied) return await finish([denied]);
    const baseRefs = await preflight(gh, basis, steps);
    if (!baseRefs) return await finish();
    const pending = steps.map((s) => (s.result === 'merged' ? s : { ...s, result: 'pending' as const }));
    await say(everyone, { outcome: 'running', steps: pending });
    await mergeInOrder(
      gh,
      basis,
      steps,
      baseRefs,
      async () => await store.merges.update(attempt, 'running', steps),
    );
    return await finish();
  } catch (e) {
    // GitHub unreachable while reading the members, or the store failing: never leave the
    // attempt running, and say on every member how far it got.
    await store.merges.update(attempt, 'interrupted', steps);
    const reasons = [`the merge stopped: ${scrubCredentials((e as Error).message)}`];
    await say(everyone, { outcome: mergeOutcome(steps), steps, reasons });
    throw e;
  }
}

/**
 * Members an earlier `/tandem merge` merged, by key: this evaluation's own earlier attempts, and
 * linked PRs merged by an attempt on an earlier evaluation (after a half-merge, the rest of the
 * set is evaluated again without them: they still belong in its merge comment).
 */
async function keptMerges(store: Store, evaluationId: number, evaluated: readonly EvaluatedMember[]) {
  const kept = new Map<string, MergeStep>();
  for (const [key, mergeSha] of await store.merges.mergedBefore(evaluationId)) {
    const m = evaluated.find((e) => e.key === key);
    if (m) kept.set(key, { ...m, result: 'merged', mergeSha });
  }
  for (const m of evaluated) {
    const neighbours = [...(await store.links.from(m.key)).map(pullKey), ...(await store.links.to(m.key))];
    for (const key of neighbours) {
      if (kept.has(key) || evaluated.some((e) => e.key === key)) continue;
      if ((await store.pulls.get(key))?.state !== 'merged') continue;
      const step = await store.merges.mergedStep(key);
      if (step) kept.set(key, step);
    }
  }
  return kept;
}
