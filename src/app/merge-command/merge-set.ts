/**
 * `/tandem merge`: merges a resolved linked change member by member, producers first, and says
 * on every member what happened. The rules are core's (`merge-command-plan.ts`, `required-checks.ts`);
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
  memberRefusal,
  mergeOutcome,
  mergePlan,
  setDrift,
} from '../../core/merge-command-plan.ts';
import { itemRank, leastPrivate, pageRank, pageSees, statusForPage } from '../../core/page-privacy.ts';
import { parsePullKey, pullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import { describeBlockingCheck, judgeRequiredChecks } from '../../core/required-checks.ts';
import { checksOn, livePull, mergePull, requiredChecks } from '../../github/merge-pulls.ts';
import type { GitHub } from '../../github/octokit.ts';
import { repoId } from '../../github/octokit.ts';
import { canWrite } from '../../github/permissions.ts';
import { MERGE_MARKER, upsertStickyComment } from '../../github/sticky-comment.ts';
import { type MergeStatus, renderMergeStatus } from '../../report/merge-command-status.ts';
import { markCommentsMerged } from '../evaluations/publish-evaluation.ts';
import type { Store } from '../store/store.ts';
import { rulesRefusal } from './branch-rules-gate.ts';

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
  gh: GitHub,
  store: Store,
  keys: readonly string[],
  status: MergeStatus,
  log: Log,
  named: readonly string[] = keys,
): Promise<void> {
  const all = [...new Set([...keys, ...named, ...status.steps.map((s) => s.key)])];
  for (const key of keys) {
    const ref = parsePullKey(key);
    // Each page its own text: nothing of a PR more private than it (core/page-privacy.ts).
    const sees = pageSees(pageRank(store.pulls.facts(key)?.visibility), (k) =>
      itemRank(store.pulls.facts(k)?.visibility),
    );
    const body = renderMergeStatus(statusForPage(status, sees, all));
    try {
      await upsertStickyComment(gh, { owner: ref.owner, repo: ref.repo }, ref.number, body, MERGE_MARKER);
    } catch (e) {
      // One member's comment failing must not keep the others from hearing about the merge.
      log.warn({ err: e, pull: key }, 'could not write the merge comment');
    }
  }
  // Merged: the verdict comment says so and no longer offers a re-run.
  if (status.outcome === 'merged')
    await markCommentsMerged(gh, keys, status.requestedBy).catch((e) =>
      log.warn({ err: e }, 'could not mark the verdict comments merged'),
    );
}

const notAttempted = (m: EvaluatedMember): MergeStep => ({ ...m, result: 'not-attempted' });

export async function mergeLinkedSet(
  store: Store,
  gh: GitHub,
  req: MergeRequest,
  log: Log,
): Promise<MergeCommandResult> {
  // The seed too: once merged it has left its own set as the index knows it.
  const evaluation = store.evaluations.latestCovering([req.seed, ...req.linked]);
  let notes: string[] = [];
  // Every PR the texts may name: each page's comment leaves out those more private than it.
  const say = (keys: readonly string[], st: MergeStatus) =>
    tell(gh, store, keys, st, log, [req.seed, ...req.linked]);
  const status = (s: Omit<MergeStatus, 'requestedBy'>): MergeStatus => ({
    ...s,
    requestedBy: req.requestedBy,
    ...(notes.length > 0 ? { notes } : {}),
  });
  if (!evaluation) {
    const reasons = [evaluationRefusal(undefined)!];
    await say([req.seed], status({ outcome: 'refused', reasons, steps: [] }));
    return 'done';
  }
  const verdict = store.evaluations.verdict(evaluation.id);
  const evaluated =
    evaluation.members.length > 0
      ? evaluation.members
      : [...new Set([req.seed, ...req.linked])].map((key) => ({
          key,
          headSha: store.pulls.get(key)?.headSha ?? '',
        }));
  const kept = keptMerges(store, evaluation.id, evaluated);
  // Merged neighbours carried into the comment are named on every member's page: only those
  // every member may see (a private PR merged by its own set never shows on a public one).
  const page = leastPrivate(evaluated.map((m) => pageRank(store.pulls.facts(m.key)?.visibility)));
  const sees = pageSees(page, (key) => itemRank(store.pulls.facts(key)?.visibility));
  const carried = [...kept.values()].filter((s) => !evaluated.some((m) => m.key === s.key) && sees(s.key));
  const mergeOrder = verdict?.mergeOrder ?? [];
  // Dependencies first, by the links each member makes; `merge_order` ranks repositories first.
  const plan = mergePlan([...evaluated, ...carried], mergeOrder, (key) => store.links.from(key).map(pullKey));
  const sequence = plan.sequence;
  const everyone = sequence.map((m) => m.key);
  notes = [cycleNote(plan, mergeOrder)].filter((n): n is string => n !== undefined);

  const last = store.merges.latest(evaluation.id);
  if (last?.state === 'merged') {
    await say(everyone, status({ outcome: 'merged', steps: last.steps, alreadyMerged: true }));
    return 'done';
  }
  const attempt = store.merges.start(evaluation.id, req.requestedBy);
  if (attempt === undefined) return 'busy';

  // What earlier attempts merged stays merged, whatever this attempt does.
  const steps: MergeStep[] = sequence.map((m) => kept.get(m.key) ?? notAttempted(m));
  const finish = async (reasons: string[] = []) => {
    const outcome = mergeOutcome(steps);
    store.merges.update(attempt, outcome, steps);
    await say(everyone, status({ outcome, steps, reasons }));
  };
  try {
    // The whole set first: nothing merges unless all of it can.
    const setReasons = [
      evaluationRefusal({ state: evaluation.state, outcome: verdict?.outcome ?? null }),
      evaluation.members.length > 0 ? setDrift(everyone, req.linked) : undefined,
    ].filter((r): r is string => r !== undefined);
    if (setReasons.length > 0) {
      await finish(setReasons);
      return 'done';
    }
    // Rights on every member's repository: write access where the command was written is not
    // write access everywhere, and nothing merges unless the requester may merge all of it.
    const denied = await reposDenied(gh, sequence, kept, req.requestedBy);
    if (denied.size > 0) {
      sequence.forEach((m, i) => {
        const repo = repoOfPullKey(m.key);
        if (denied.has(repo))
          steps[i] = { ...m, result: 'refused', reason: `${req.requestedBy} has no write access to ${repo}` };
      });
      const refusedKeys = sequence.filter((m) => denied.has(repoOfPullKey(m.key))).map((m) => m.key);
      await finish([`${req.requestedBy} may not merge ${refusedKeys.join(', ')} (no write access)`]);
      return 'done';
    }
    // Preflight every member before anything merges: open, mergeable, head as evaluated, and its
    // base branch's required checks passing on that head.
    const live = await Promise.all(sequence.map((m) => livePull(gh, parsePullKey(m.key))));
    let refusedAny = false;
    for (const [i, m] of sequence.entries()) {
      const now = live[i];
      const earlier = kept.get(m.key);
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
    if (refusedAny) {
      await finish();
      return 'done';
    }

    await say(
      everyone,
      status({
        outcome: 'running',
        steps: steps.map((s) => (s.result === 'merged' ? s : { ...s, result: 'pending' })),
      }),
    );
    for (const [i, m] of sequence.entries()) {
      if (steps[i]!.result === 'merged') continue;
      const reason = await mergeOne(gh, m, live[i]!.baseRef, (sha) => {
        steps[i] = { ...m, result: 'merged', mergeSha: sha };
      });
      if (reason !== undefined) {
        steps[i] = { ...m, result: 'refused', reason };
        break;
      }
      // Each merge is on record at once: a crash after it still leaves the truth in the store.
      store.merges.update(attempt, 'running', steps);
    }
    await finish();
    return 'done';
  } catch (e) {
    // GitHub unreachable while reading the members, or the store failing: never leave the
    // attempt running, and say on every member how far it got.
    store.merges.update(attempt, 'interrupted', steps);
    const reasons = [`the merge stopped: ${scrubCredentials((e as Error).message)}`];
    await say(everyone, status({ outcome: mergeOutcome(steps), steps, reasons }));
    throw e;
  }
}

/**
 * Members an earlier `/tandem merge` merged, by key: this evaluation's own earlier attempts, and
 * linked PRs merged by an attempt on an earlier evaluation (after a half-merge, the rest of the
 * set is evaluated again without them: they still belong in its merge comment).
 */
function keptMerges(store: Store, evaluationId: number, evaluated: readonly EvaluatedMember[]) {
  const kept = new Map<string, MergeStep>();
  for (const [key, mergeSha] of store.merges.mergedBefore(evaluationId)) {
    const m = evaluated.find((e) => e.key === key);
    if (m) kept.set(key, { ...m, result: 'merged', mergeSha });
  }
  for (const m of evaluated) {
    const neighbours = [...store.links.from(m.key).map(pullKey), ...store.links.to(m.key)];
    for (const key of neighbours) {
      if (kept.has(key) || evaluated.some((e) => e.key === key)) continue;
      if (store.pulls.get(key)?.state !== 'merged') continue;
      const step = store.merges.mergedStep(key);
      if (step) kept.set(key, step);
    }
  }
  return kept;
}

/** Repositories of members still to merge where `user` has no write access. */
async function reposDenied(
  gh: GitHub,
  sequence: readonly EvaluatedMember[],
  kept: ReadonlyMap<string, MergeStep>,
  user: string,
): Promise<Set<string>> {
  const repos = [...new Set(sequence.filter((m) => !kept.has(m.key)).map((m) => repoOfPullKey(m.key)))];
  const allowed = await Promise.all(repos.map((r) => canWrite(gh, repoId(r), user)));
  return new Set(repos.filter((_, i) => !allowed[i]));
}

/** Why a member's required checks (as GitHub reports them on its head) keep it from merging. */
async function checksRefusal(gh: GitHub, m: EvaluatedMember, baseRef: string): Promise<string | undefined> {
  const repo = repoId(repoOfPullKey(m.key));
  try {
    const required = await requiredChecks(gh, repo, baseRef);
    if (required.length === 0) return undefined;
    const { runs, statuses } = await checksOn(gh, repo, m.headSha);
    const judged = judgeRequiredChecks(required, runs, statuses);
    return judged.pass ? undefined : describeBlockingCheck(judged.checks);
  } catch (e) {
    return `its required checks could not be read (${(e as Error).message})`;
  }
}

/** Checks again (they may change after the preflight), then merges one member; the refusal reason, or undefined once merged. */
async function mergeOne(
  gh: GitHub,
  m: EvaluatedMember,
  baseRef: string,
  merged: (sha: string) => void,
): Promise<string | undefined> {
  const blocked = await checksRefusal(gh, m, baseRef);
  if (blocked) return blocked;
  const answer = await mergePull(gh, parsePullKey(m.key), m.headSha);
  if (!answer.merged) return answer.reason;
  merged(answer.sha);
  return undefined;
}
