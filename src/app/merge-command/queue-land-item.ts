/**
 * Landing one queue item that passed (issue 28), for the runner (`queue-runner.ts`): its tested
 * commits land producer first, all or nothing (`github/land-set.ts`), and every member hears how
 * it ended. Three ends:
 * - landed: the item leaves the queue (`recordLanded`);
 * - refused by GitHub (a 422 non-fast-forward, a rule): what landed was undone; the item leaves
 *   the queue with the reason (`recordLandingRefused`);
 * - interrupted (GitHub did not answer: network, 5xx, timeout, or no installation token): no
 *   verdict and no refusal. Nothing is reverted, every member hears where each member stands, and
 *   the landing is tried again after a backoff (`landingRetryMs`, doubling, at most 5 minutes)
 *   while the item stays in the queue as `landing`; a landing retried finds the members already
 *   landed at their tested commits and carries on.
 */
import type { QueueState } from '../../core/set-queue/queue-state.ts';
import { recordLanded, recordLandingRefused } from '../../core/set-queue/queue-state.ts';
import { type Landing, type LandOutcome, landTestedSet } from '../../github/land-set.ts';
import type { GitHub } from '../../github/octokit.ts';
import { memberDrift } from '../../github/queue-member-drift.ts';
import { publicFailureMessage } from '../evaluations/failure-message.ts';
import { markCommentsMerged } from '../evaluations/publish-evaluation.ts';
import type { Store } from '../store/store.ts';
import type { QueueItemRecord } from '../store/store-set-queue.ts';
import { interruptedView, landingsOf, landingView } from './queue-landing.ts';
import { tellQueueStatus } from './queue-status.ts';

/** The longest wait between two tries of an interrupted landing. */
const MAX_LANDING_RETRY_MS = 5 * 60_000;

export interface LandItemContext {
  store: Store;
  log: { warn: (o: object, m: string) => void };
  auth: (installationId: number) => Promise<GitHub>;
  item: (id: string) => Promise<QueueItemRecord>;
  step: (installationId: number, change: (s: QueueState) => QueueState) => Promise<void>;
  /** Resolves true after `ms`, false when the App stops first (the item then stays `landing`). */
  wait: (ms: number) => Promise<boolean>;
  /** The first wait after an interrupted landing. */
  landingRetryMs: number;
}

export async function landItem(ctx: LandItemContext, installationId: number, itemId: string): Promise<void> {
  const { store, log } = ctx;
  const item = await ctx.item(itemId);
  const pass = await store.setQueue.lastPass(itemId);
  await store.setQueue.setStatus(itemId, 'landing');
  if (!pass) {
    await ctx.step(installationId, (s) => recordLandingRefused(s, itemId, 'no passing evaluation to land'));
    return;
  }
  for (let attempt = 0; ; attempt += 1) {
    let gh: GitHub | undefined;
    let outcome: LandOutcome;
    try {
      gh = await ctx.auth(installationId);
      const drift = await memberDrift(gh, item.members);
      const landings = landingsOf(item, pass);
      outcome = drift
        ? {
            kind: 'refused',
            at: landings.find((l) => l.pull === drift.pull) as Landing,
            reason: drift.reason,
            reverted: [],
            windowMs: 0,
          }
        : await landTestedSet(gh, landings, { itemId });
    } catch (error) {
      // No token: nothing could have moved.
      outcome = { kind: 'interrupted', error, members: [] };
    }
    if (outcome.kind !== 'interrupted' && gh) return finish(ctx, gh, installationId, item, outcome);
    if (outcome.kind !== 'interrupted') return;
    const waitMs = Math.min(ctx.landingRetryMs * 2 ** attempt, MAX_LANDING_RETRY_MS);
    const reason = publicFailureMessage(outcome.error, []);
    log.warn({ item: itemId, attempt, reason }, 'merge queue landing interrupted; trying again');
    if (gh) await tellQueueStatus(gh, store, item, interruptedView(outcome, reason, waitMs), log);
    if (!(await ctx.wait(waitMs))) return;
  }
}

async function finish(
  ctx: LandItemContext,
  gh: GitHub,
  installationId: number,
  item: QueueItemRecord,
  outcome: Exclude<LandOutcome, { kind: 'interrupted' }>,
): Promise<void> {
  const { store, log } = ctx;
  const view = landingView(outcome);
  if (outcome.kind === 'landed') {
    await store.setQueue.setStatus(item.id, 'landed');
    await tellQueueStatus(gh, store, await ctx.item(item.id), view, log);
    await markCommentsMerged(
      gh,
      item.members.map((m) => m.pull),
      item.requestedBy,
      store.comments,
    ).catch((e) => log.warn({ err: e }, 'could not mark the verdict comments merged'));
    await ctx.step(installationId, (s) => recordLanded(s, item.id));
    return;
  }
  await store.setQueue.setStatus(item.id, 'evicted', outcome.reason);
  await tellQueueStatus(gh, store, await ctx.item(item.id), view, log);
  await ctx.step(installationId, (s) => recordLandingRefused(s, item.id, outcome.reason));
}
