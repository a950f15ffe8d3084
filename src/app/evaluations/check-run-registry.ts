/**
 * One `Tandem` check run per member head SHA, even when the webhook path (immediately queued)
 * and the evaluation (after the debounce) ask for it at the same moment.
 */

import { repoOfPullKey } from '../../core/pull-ref.ts';
import { completeCheckRun, createQueuedCheckRun } from '../../github/check-runs.ts';
import { type GitHub, repoId } from '../../github/octokit.ts';
import type { Store } from '../store/store.ts';

export class CheckRunRegistry {
  private readonly inFlight = new Map<string, Promise<number>>();

  constructor(private readonly store: Store) {}

  /** The open check run for this PR head, created `queued` when there is none. */
  ensure(gh: GitHub, pullKey: string, headSha: string, evaluationId: number | null): Promise<number> {
    const id = `${pullKey}@${headSha}`;
    const existing = this.store.checkRuns.get(pullKey, headSha);
    if (existing && !existing.completed) {
      if (evaluationId !== null) this.store.checkRuns.claim(pullKey, headSha, evaluationId);
      return Promise.resolve(existing.checkRunId);
    }
    let p = this.inFlight.get(id);
    if (!p) {
      p = createQueuedCheckRun(
        gh,
        repoId(repoOfPullKey(pullKey)),
        headSha,
        pullKey,
        'Waiting for the linked change to be evaluated.',
      )
        .then((checkRunId) => {
          this.store.checkRuns.save({ pullKey, headSha, checkRunId, evaluationId });
          return checkRunId;
        })
        .finally(() => this.inFlight.delete(id));
      this.inFlight.set(id, p);
      return p;
    }
    return p.then((checkRunId) => {
      if (evaluationId !== null) this.store.checkRuns.claim(pullKey, headSha, evaluationId);
      return checkRunId;
    });
  }

  /** Resolves once no check run is being created (the store may close after). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Closes check runs on heads the PR has moved away from, so none stays open forever. */
  async closeStale(
    gh: GitHub,
    pullKey: string,
    currentSha: string | undefined,
    reason: string,
  ): Promise<void> {
    for (const c of this.store.checkRuns.open(pullKey)) {
      if (c.headSha === currentSha) continue;
      await completeCheckRun(gh, repoId(repoOfPullKey(pullKey)), c.checkRunId, 'cancelled', {
        title: 'Tandem: superseded',
        summary: reason,
      });
      this.store.checkRuns.complete(pullKey, c.headSha);
    }
  }
}
