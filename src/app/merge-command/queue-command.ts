/**
 * `/tandem merge` and `/tandem dequeue` on the linked-set merge queue (issue 28).
 *
 * `/tandem merge` enqueues the linked set as one item, once everything the queue may not decide
 * later is checked: every member is an open PR, the requester may write to every member's
 * repository, and each member's branch rules the App may not bypass (required reviews, CODEOWNERS,
 * signatures; a branch the App may not move) are met (`github/queue-precheck.ts`); a branch that
 * requires GitHub's merge queue is recorded, and that member lands through it. Nothing enters the
 * queue unless all of it can; the merge comment on every member names each reason.
 * Members are kept in merge order: the suite's `merge_order` (from the set's latest evaluation),
 * then each PR after the PRs it links to (core/merge-command-plan.ts).
 *
 * `/tandem dequeue` removes the item holding the PR (cancelling its evaluations; the items behind
 * that assumed it are evaluated again without it) and says so on every member.
 */
import { type EvaluatedMember, mergePlan } from '../../core/merge-command-plan.ts';
import { pullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import { sameRepo } from '../../core/repo-name.ts';
import { dequeue, enqueue } from '../../core/set-queue/queue-state.ts';
import type { GitHub } from '../../github/octokit.ts';
import { repoId } from '../../github/octokit.ts';
import { canWrite } from '../../github/permissions.ts';
import { precheckQueueItem } from '../../github/queue-precheck.ts';
import { publicFailureMessage } from '../evaluations/failure-message.ts';
import type { Store, StoredPull } from '../store/store.ts';
import type { QueueMemberRecord } from '../store/store-set-queue.ts';
import type { SetQueueRunner } from './queue-runner.ts';
import { tellQueueStatus } from './queue-status.ts';

type Log = { warn: (o: object, m: string) => void };

export interface EnqueueRequest {
  seed: string;
  /** The linked set around the seed as the link index knows it now. */
  linked: string[];
  requestedBy: string;
  installationId: number;
  /**
   * The repositories of the suite covering the seed (`tandem.yml`): those no member changes are
   * the ones its evaluation checks out unchanged (its context, which its `wiring` edges wire in),
   * so an item ahead that changes one changes what this item is tested on (core/set-queue/lanes.ts).
   */
  suiteRepos?: readonly string[];
}

export type EnqueueResult = 'queued' | 'already-queued' | 'refused';

export async function enqueueLinkedSet(
  runner: SetQueueRunner,
  store: Store,
  gh: GitHub,
  req: EnqueueRequest,
  log: Log,
): Promise<EnqueueResult> {
  const keys = [...new Set([req.seed, ...req.linked])];
  let already = false;
  for (const k of keys) already ||= (await store.setQueue.activeItemOf(k)) !== undefined;
  if (already) {
    await runner.step(req.installationId);
    return 'already-queued';
  }
  const members = await membersInMergeOrder(store, keys);
  const reasons = await refusals(gh, store, members, keys, req.requestedBy);
  const precheck = reasons.length > 0 ? [] : await branchRulesOf(gh, members, reasons);
  for (const p of precheck) if (!p.ok) reasons.push(`${p.pull}: ${p.reason}`);
  if (reasons.length > 0) {
    const refused = { id: '', checkRuns: {}, members };
    await tellQueueStatus(gh, store, refused, { kind: 'refused', reasons }, log, { check: false });
    return 'refused';
  }
  const viaQueue = new Set(precheck.filter((p) => p.ok && p.viaMergeQueue).map((p) => p.pull));
  const recorded = members.map((m) => ({ ...m, viaMergeQueue: viaQueue.has(m.pull) }));
  // The number and the "not queued yet" check are one step in the store: two enqueues at once
  // (two replicas) get two numbers, and a set queued meanwhile is not queued again.
  const id = await store.setQueue.addItem({
    installationId: req.installationId,
    seed: req.seed,
    requestedBy: req.requestedBy,
    members: recorded,
  });
  if (id === undefined) {
    await runner.step(req.installationId);
    return 'already-queued';
  }
  const wiringRepos = (req.suiteRepos ?? []).filter((r) => !members.some((m) => sameRepo(m.repo, r)));
  const item = {
    id,
    members: recorded.map((m) => ({ pull: m.pull, repo: m.repo, baseBranch: m.baseBranch })),
    ...(wiringRepos.length > 0 ? { wiringRepos } : {}),
    enqueuedAt: Date.now(),
  };
  await runner.step(req.installationId, (s) => enqueue(s, item));
  return 'queued';
}

/** `/tandem dequeue`: false when the PR's set is not in the queue. */
export async function dequeueLinkedSet(
  runner: SetQueueRunner,
  store: Store,
  gh: GitHub,
  pull: string,
  by: string,
  log: Log,
  why?: string,
): Promise<boolean> {
  const item = await store.setQueue.activeItemOf(pull);
  if (item?.status !== 'queued') return false;
  await store.setQueue.setStatus(item.id, 'dequeued', why ?? `dequeued by ${by}`);
  await runner.step(item.installationId, (s) => dequeue(s, item.id));
  await tellQueueStatus(gh, store, item, { kind: 'dequeued', by, ...(why ? { why } : {}) }, log);
  return true;
}

/**
 * A queued member changed on GitHub: a new head (the tested commit would land the old one) or a PR
 * closed without merging. The item leaves the queue and every member hears why; a member the
 * queue itself is landing (merged) changes nothing.
 */
export async function dequeueChanged(
  runner: SetQueueRunner,
  store: Store,
  gh: GitHub,
  pull: { key: string; headSha: string; state: string },
  log: Log,
): Promise<boolean> {
  const item = await store.setQueue.activeItemOf(pull.key);
  const member = item?.members.find((m) => m.pull === pull.key);
  if (!item || !member || pull.state === 'merged') return false;
  const why =
    pull.state !== 'open'
      ? `${pull.key} was closed`
      : member.headSha !== pull.headSha
        ? `${pull.key}'s head moved to ${pull.headSha.slice(0, 7)} after it was queued (comment \`/tandem merge\` again)`
        : undefined;
  if (!why) return false;
  return dequeueLinkedSet(runner, store, gh, pull.key, 'GitHub', log, why);
}

/** GitHub's branch rules per member; rules that cannot be read are not rules met (a reason). */
async function branchRulesOf(gh: GitHub, members: readonly QueueMemberRecord[], reasons: string[]) {
  try {
    return await precheckQueueItem(
      gh,
      members.map((m) => ({ pull: m.pull, baseBranch: m.baseBranch })),
    );
  } catch (e) {
    reasons.push(`the branch rules could not be read (${publicFailureMessage(e, [])})`);
    return [];
  }
}

/** The members as the store knows them, producers first. */
async function membersInMergeOrder(store: Store, keys: readonly string[]): Promise<QueueMemberRecord[]> {
  const evaluation = await store.evaluations.latestCovering(keys);
  const mergeOrder = evaluation ? ((await store.evaluations.verdict(evaluation.id))?.mergeOrder ?? []) : [];
  const pulls = new Map<string, StoredPull | undefined>();
  const links = new Map<string, string[]>();
  for (const key of keys) {
    pulls.set(key, await store.pulls.get(key));
    links.set(key, (await store.links.from(key)).map(pullKey));
  }
  const known: EvaluatedMember[] = keys.map((key) => ({ key, headSha: pulls.get(key)?.headSha ?? '' }));
  const plan = mergePlan(known, mergeOrder, (key) => links.get(key) ?? []);
  return plan.sequence.map((m) => ({
    pull: m.key,
    repo: repoOfPullKey(m.key),
    baseBranch: pulls.get(m.key)?.baseRef ?? '',
    headSha: m.headSha,
    viaMergeQueue: false,
  }));
}

/** What keeps the set out of the queue before GitHub's branch rules are read. */
async function refusals(
  gh: GitHub,
  store: Store,
  members: readonly QueueMemberRecord[],
  keys: readonly string[],
  requestedBy: string,
): Promise<string[]> {
  const reasons: string[] = [];
  for (const k of keys)
    if ((await store.pulls.get(k))?.state !== 'open') reasons.push(`${k} is not an open pull request`);
  const repos = [...new Set(members.map((m) => m.repo))];
  const allowed = await Promise.all(repos.map((r) => canWrite(gh, repoId(r), requestedBy)));
  const denied = repos.filter((_, i) => !allowed[i]);
  if (denied.length > 0) reasons.push(`${requestedBy} has no write access to ${denied.join(', ')}`);
  return reasons;
}
