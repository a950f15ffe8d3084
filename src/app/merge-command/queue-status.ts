/**
 * Says where a queue item stands on every member (issue 28): the `Tandem queue` check on its head
 * and the line of its merge comment, each page naming only what it may show (core/page-privacy.ts:
 * a public PR's page never names a private repository's PR). One member failing to hear must not
 * keep the others from hearing. Each member's writes hold its merge-comment lease (replicas).
 */
import { itemRank, pageRank, pageSees } from '../../core/page-privacy.ts';
import { parsePullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import type { RepoVisibility } from '../../core/repo-visibility.ts';
import type { GitHub } from '../../github/octokit.ts';
import { repoId } from '../../github/octokit.ts';
import { writeQueueCheck } from '../../github/queue-check.ts';
import { MERGE_MARKER, upsertStickyComment } from '../../github/sticky-comment.ts';
import { type QueueStatusView, queueCommentBody, renderQueueStatus } from '../../report/set-queue-status.ts';
import type { Store } from '../store/store.ts';
import type { QueueItemRecord } from '../store/store-set-queue.ts';
import { underMergeCommentLease } from './merge-comment-lease.ts';

type Log = { warn: (o: object, m: string) => void };

export async function tellQueueStatus(
  gh: GitHub,
  store: Store,
  item: Pick<QueueItemRecord, 'id' | 'members' | 'checkRuns'>,
  view: QueueStatusView,
  log: Log,
  opts: { check?: boolean } = {},
): Promise<void> {
  // The keys the status names, found by rendering once, so their visibility is read ahead of the
  // pure page rules (the store answers asynchronously).
  const named = new Set<string>(item.members.map((m) => m.pull));
  renderQueueStatus(view, (key) => {
    named.add(key);
    return key;
  });
  const visibility = new Map<string, RepoVisibility | undefined>();
  for (const k of named) visibility.set(k, (await store.pulls.facts(k))?.visibility);
  for (const m of item.members) {
    const sees = pageSees(pageRank(visibility.get(m.pull)), (k) => itemRank(visibility.get(k)));
    const text = renderQueueStatus(view, (key) => (sees(key) ? key : 'another linked set'));
    try {
      // Under the PR's merge-comment lease, the item's check read afresh: another replica
      // telling the same item at once never creates a second comment or check.
      await underMergeCommentLease(store, m.pull, async () => {
        const ref = parsePullKey(m.pull);
        await upsertStickyComment(
          gh,
          repoId(repoOfPullKey(m.pull)),
          ref.number,
          queueCommentBody(text),
          MERGE_MARKER,
        );
        if (opts.check === false) return;
        const known = (await store.setQueue.item(item.id))?.checkRuns[m.pull] ?? item.checkRuns[m.pull];
        const id = await writeQueueCheck(
          gh,
          repoId(m.repo),
          m.headSha,
          known,
          { title: text.title, summary: text.summary },
          text.conclusion,
        );
        if (known !== id) await store.setQueue.setCheckRun(item.id, m.pull, id);
      });
    } catch (e) {
      log.warn({ err: e, pull: m.pull }, 'could not write the merge queue status');
    }
  }
}
