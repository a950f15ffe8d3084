/**
 * While an evaluation runs in GitHub Actions, every member's `Tandem` check run stays
 * `in_progress`: first "dispatched", then linked to the workflow run once it is known.
 * Updates of one evaluation run one after another and each reads the latest state, so a late
 * "dispatched" never overwrites the link.
 */
import { repoOfPullKey } from '../../core/pull-ref.ts';
import { renderHandoffProgress } from '../../report/linked-change.ts';
import type { GitHubPorts } from '../port/github-port.ts';
import type { Store, StoredEvaluation } from '../store/store.ts';

export interface HandoffProgressOptions {
  store: Store;
  github: GitHubPorts;
  log: { warn: (o: object, m: string) => void };
}

export class HandoffProgress {
  /** The check-run update in flight per evaluation. */
  private readonly pending = new Map<number, Promise<void>>();

  constructor(private readonly opts: HandoffProgressOptions) {}

  /** Resolves once no update is in flight. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending.values()]);
  }

  /** Queues an update of the members' check runs; resolves when it is written (never rejects). */
  show(evaluation: StoredEvaluation): Promise<void> {
    const id = evaluation.id;
    const next = (this.pending.get(id) ?? Promise.resolve())
      .then(() => this.write(evaluation))
      .catch((e) =>
        this.opts.log.warn({ err: (e as Error).message, evaluation: id }, 'linking check runs failed'),
      );
    this.pending.set(id, next);
    void next.then(() => {
      if (this.pending.get(id) === next) this.pending.delete(id);
    });
    return next;
  }

  private async write(evaluation: StoredEvaluation): Promise<void> {
    const h = await this.opts.store.handoffs.get(evaluation.id);
    if (!h) return;
    const gh = await this.opts.github(evaluation.installationId);
    const link = renderHandoffProgress({
      workflow: h.workflow,
      evaluator: h.evaluator,
      members: evaluation.members.map((m) => m.key),
      ...(h.run ? { runUrl: h.run.url } : {}),
    });
    for (const m of evaluation.members) {
      const c = await this.opts.store.checkRuns.get(m.key, m.headSha);
      if (!c || c.completed || c.evaluationId !== evaluation.id) continue;
      await gh.linkCheck(repoOfPullKey(m.key), c.checkRunId, {
        ...link,
        ...(h.run ? { url: h.run.url } : {}),
      });
    }
  }
}
