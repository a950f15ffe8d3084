/**
 * From a queue item's passing evaluation to what `github/land-set.ts` lands (issue 28): one
 * landing per member, in the item's merge order (producers first), each moving its base branch
 * from the speculative base the evaluation was built on to the tested commit it evaluated — the
 * landed SHA is the tested SHA by construction. Members of one repository and branch share that
 * repository's tested commit. And the landing's outcome in the queue status's words.
 */
import { sameRepo } from '../../core/repo-name.ts';
import type { Landing, LandOutcome } from '../../github/land-set.ts';
import type { QueueStatusView } from '../../report/set-queue-status.ts';
import type { QueueItemRecord, QueueRunRecord } from '../store/store-set-queue.ts';

const sameBranch = (a: { repo: string; baseBranch: string }, b: { repo: string; baseBranch: string }) =>
  sameRepo(a.repo, b.repo) && a.baseBranch === b.baseBranch;

export function landingsOf(item: QueueItemRecord, pass: QueueRunRecord): Landing[] {
  return item.members.map((m) => {
    const tested = pass.tested.find((t) => sameBranch(t, m));
    if (!tested) throw new Error(`the passing evaluation of ${item.id} holds no tested commit for ${m.pull}`);
    return {
      pull: m.pull,
      repo: m.repo,
      baseBranch: m.baseBranch,
      expectedTip: tested.base,
      testedSha: tested.sha,
      ...(m.viaMergeQueue ? { viaMergeQueue: true } : {}),
    };
  });
}

export function landingView(outcome: Exclude<LandOutcome, { kind: 'interrupted' }>): QueueStatusView {
  if (outcome.kind === 'landed')
    return {
      kind: 'landed',
      landed: outcome.landed.map((l) => ({ pull: l.pull, sha: l.testedSha })),
      windowMs: outcome.windowMs,
    };
  return {
    kind: 'landing-refused',
    at: outcome.at.pull,
    reason: outcome.reason,
    reverted: outcome.reverted.map((r) => ({
      pull: r.landing.pull,
      how: r.how,
      ...(r.revertPull ? { revertPull: r.revertPull } : {}),
    })),
    unreverted: (outcome.unreverted ?? []).map((u) => ({ pull: u.landing.pull, reason: u.reason })),
    windowMs: outcome.windowMs,
  };
}

/** A landing GitHub stopped answering: where each member stands, and when it is tried again. */
export function interruptedView(
  outcome: Extract<LandOutcome, { kind: 'interrupted' }>,
  reason: string,
  retryInMs: number,
): QueueStatusView {
  return {
    kind: 'landing-interrupted',
    reason,
    members: outcome.members.map((m) => ({
      pull: m.landing.pull,
      standing: m.standing,
      ...(m.standing === 'landed' ? { sha: m.landing.testedSha } : {}),
    })),
    retryInMs,
  };
}
