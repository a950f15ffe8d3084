/**
 * `executor: actions`: the evaluation runs in the evaluator repository's workflow instead of on
 * the App host. The App dispatches the workflow (`workflow_dispatch` with the linked change as
 * inputs), keeps every member's check run `in_progress` with a link to the run once a
 * `workflow_run` event (or a poll) names it, and when the run completes reads its `tandem-report`
 * artifact: the report then goes through the same publishing as a local one.
 *
 * The run is found by its run-name, which the workflow sets to contain `#<evaluation id>`.
 * Restart safety: the dispatch is stored; a resumed evaluation waits for that run (asking GitHub
 * once, in case its completion was delivered while the App was down) instead of dispatching
 * again, until the configured timeout makes it an infrastructure error.
 * The change names its evaluation and placement (`LinkedChangeSpec.evaluationId`, `.actions`);
 * changes without a placement (organizations on `executor: local`) go to `fallback`.
 */
import { formatContextRef } from '../../core/context-ref.ts';
import type { EvaluationEvent } from '../../core/evaluation-event.ts';
import { repoOfPullKey } from '../../core/pull-ref.ts';
import { sameRepo } from '../../core/repo-name.ts';
import type { Report } from '../../core/report.schema.ts';
import type { WorkflowRunInfo } from '../../github/actions.ts';
import type { GitHubPort, GitHubPorts } from '../port/github-port.ts';
import type { Store, StoredEvaluation } from '../store/store.ts';
import type { Handoff, HandoffStore } from '../store/store-handoffs.ts';
import { HandoffProgress } from './actions-progress.ts';
import { readRunReport } from './actions-report.ts';
import { refuseExposingHandoff } from './evaluator-exposure.ts';
import type { ActionsPlacement, Executor, LinkedChangeSpec } from './executor.ts';

export interface ActionsExecutorOptions {
  store: Store;
  /** Runs evaluations of organizations on `executor: local`. */
  fallback: Executor;
  /** The process's one port per installation (shared with the service). */
  github: GitHubPorts;
  log: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };
  /** How often a waiting evaluation asks GitHub about its run, in case a webhook was lost. */
  pollMs?: number;
}

/** Runs created this long before their dispatch (clock skew) still count as its run. */
const SKEW_MS = 2 * 60_000;

/** `Tandem #42 acme/api#7 …` → 42: a `#N` standing alone (PR references have a repository before `#`). */
export function evaluationIdOf(title: string): number | undefined {
  const m = /(?:^|\s)#(\d+)(?=\s|$)/.exec(title);
  return m ? Number(m[1]) : undefined;
}

export class ActionsExecutor implements Executor {
  private readonly handoffs: HandoffStore;
  /** Evaluations waiting in `run`, woken when their run changes. */
  private readonly waiters = new Map<number, () => void>();
  private readonly progress: HandoffProgress;
  /** Reads of GitHub in flight (polls, reconciles): `close` waits for them. */
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly opts: ActionsExecutorOptions) {
    this.handoffs = opts.store.handoffs;
    this.progress = new HandoffProgress({ store: opts.store, github: opts.github, log: opts.log });
  }

  /**
   * Stops observing runs and resolves once no poll or check-run update is in flight. Waiting
   * evaluations end by their abort (the service closes first); after this the store may close.
   */
  async close(): Promise<void> {
    this.closed = true;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await this.progress.settled();
  }

  /** Readiness is the fallback's: merge groups and `executor: local` organizations run there. */
  ready(): Promise<string> {
    return this.opts.fallback.ready?.() ?? Promise.resolve('no dependency');
  }

  async run(
    change: LinkedChangeSpec,
    signal: AbortSignal,
    onEvent?: (event: EvaluationEvent) => void,
  ): Promise<Report> {
    // The local engine's events reach the running check; a workflow run reports only at its end.
    if (!change.actions) return this.opts.fallback.run(change, signal, onEvent);
    const evaluation = await this.opts.store.evaluations.get(change.evaluationId);
    // Never the fallback here: the organization asked that PR code not run on the App host.
    if (!evaluation) throw new Error(`evaluation ${change.evaluationId} is not recorded`);
    const gh = await this.opts.github(evaluation.installationId);
    return this.handOff(gh, evaluation, change, change.actions, signal);
  }

  /**
   * A `workflow_run` event (or a polled run) of `repo`. False when it belongs to no evaluation
   * waiting on Actions: another workflow, an unknown or finished evaluation. Resolves once the
   * check runs link to the run, so a completion is published after the link, never before.
   */
  async observeRun(
    repo: string,
    run: WorkflowRunInfo,
    claim?: (tx: Store) => Promise<boolean>,
  ): Promise<boolean> {
    if (this.closed) return false;
    const id = evaluationIdOf(run.title);
    const h = id === undefined ? undefined : await this.handoffs.get(id);
    if (!h || !sameRepo(h.evaluator, repo)) return false;
    if (run.path && run.path.split('/').pop() !== h.workflow) return false;
    if (Date.parse(run.createdAt) < h.dispatchedAt - SKEW_MS) return false;
    const evaluation = await this.opts.store.evaluations.get(h.evaluationId);
    if (evaluation?.state !== 'running') return false;
    // The first run seen is the evaluation's; a completed run does not go back to in progress.
    if (h.run && (h.run.id !== run.id || (h.run.status === 'completed' && run.status !== 'completed')))
      return false;
    // Checked again where it is written: another replica may have recorded a run meanwhile. A
    // webhook's `claim` (its delivery's) commits with the record, or neither does.
    const record = async (s: Store) => await s.handoffs.recordRun(h.evaluationId, h.dispatchedAt, run);
    const recorded = claim
      ? await this.opts.store.transaction(
          async (tx) => (await claim(tx)) && (await record(tx)),
          'record a run',
        )
      : await record(this.opts.store);
    if (!recorded) return false;
    if (!h.run) await this.progress.show(evaluation);
    this.waiters.get(h.evaluationId)?.();
    return true;
  }

  private async handOff(
    gh: GitHubPort,
    evaluation: StoredEvaluation,
    change: LinkedChangeSpec,
    placement: ActionsPlacement,
    signal: AbortSignal,
  ): Promise<Report> {
    signal.throwIfAborted();
    const { evaluator, workflow } = placement;
    const heads = evaluation.members.map((m) => `${m.key}@${m.headSha}`).sort();
    let h = await this.handoffs.get(evaluation.id);
    const resumed =
      h !== undefined &&
      h.evaluator === placement.evaluator &&
      h.workflow === workflow &&
      h.heads.join(' ') === heads.join(' ');
    if (!h || !resumed) {
      await refuseExposingHandoff(gh, evaluator, change);
      // PR references as the repositories spell them (the store keeps keys lower-case).
      const pulls = evaluation.members.map((m) => {
        const target = change.targets.find((t) => sameRepo(t.repo, repoOfPullKey(m.key)));
        return `${target?.repo ?? repoOfPullKey(m.key)}${m.key.slice(m.key.indexOf('#'))}`;
      });
      const ref = placement.ref ?? (await gh.repo(evaluator)).defaultBranch;
      // Stored before dispatching: the run's first webhook can beat the dispatch's answer.
      h = await this.handoffs.save({
        evaluationId: evaluation.id,
        evaluator,
        workflow,
        heads,
        dispatchedAt: Date.now(),
      });
      try {
        await gh.dispatchWorkflow(evaluator, workflow, ref, {
          'pull-requests': pulls.join(' '),
          // The suite's repositories without a PR, at the refs a local run takes them. Left out
          // when there are none, so a workflow from before the `context` input still starts.
          ...(change.context.length > 0 ? { context: change.context.map(formatContextRef).join(' ') } : {}),
          suite: change.suitePath,
          matrix: change.matrix,
          'evaluation-id': String(evaluation.id),
        });
      } catch (e) {
        await this.handoffs.delete(evaluation.id);
        throw new Error(
          `could not start the \`${workflow}\` workflow of ${placement.evaluator}: ${(e as Error).message}`,
        );
      }
      this.opts.log.info(
        { evaluation: evaluation.id, evaluator: placement.evaluator },
        'dispatched to Actions',
      );
    }
    await this.progress.show(evaluation);
    const run = await this.waitForRun(gh, h, h.dispatchedAt + placement.timeout_minutes * 60_000, signal);
    return readRunReport(gh, evaluator, run);
  }

  /** Resolves with the completed run; rejects on abort or at the deadline. */
  private waitForRun(
    gh: GitHubPort,
    h: Handoff,
    deadline: number,
    signal: AbortSignal,
  ): Promise<NonNullable<Handoff['run']>> {
    const id = h.evaluationId;
    return new Promise((resolve, reject) => {
      let finished = false;
      const finish = (settle: () => void) => {
        finished = true;
        clearTimeout(timer);
        clearInterval(poll);
        this.waiters.delete(id);
        signal.removeEventListener('abort', onAbort);
        settle();
      };
      // Called by events (a webhook, a poll's answer): never rejects; the store failing ends the wait.
      const check = (): void => {
        if (finished) return;
        void (async () => {
          try {
            const run = (await this.handoffs.get(id))?.run;
            if (run?.status === 'completed' && !finished) finish(() => resolve(run));
          } catch (e) {
            if (!finished) finish(() => reject(e));
          }
        })();
      };
      const onAbort = () => finish(() => reject(signal.reason ?? new Error('aborted')));
      const minutes = Math.round((deadline - h.dispatchedAt) / 60_000);
      const timer = setTimeout(
        () => finish(() => reject(new Error(`the workflow run did not complete within ${minutes} minutes`))),
        Math.max(0, deadline - Date.now()),
      );
      let asking = false;
      const ask = () => {
        // One question at a time: a slow answer must not pile polls up behind it.
        if (finished || this.closed || asking) return;
        asking = true;
        const p = this.reconcile(gh, h)
          .then(check, (e) =>
            this.opts.log.warn(
              { err: (e as Error).message, evaluation: id },
              'reading the workflow run failed',
            ),
          )
          .finally(() => {
            asking = false;
            this.inFlight.delete(p);
          });
        this.inFlight.add(p);
      };
      const poll = setInterval(ask, this.opts.pollMs ?? 5 * 60_000);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.set(id, check);
      check();
      // Events may have been missed (the App was down, or the run started before we listened).
      ask();
    });
  }

  /** Asks GitHub about the evaluation's run: by id once known, else among the workflow's recent runs. */
  private async reconcile(gh: GitHubPort, h: Handoff): Promise<void> {
    const known = (await this.handoffs.get(h.evaluationId))?.run;
    if (known) {
      const run = await gh.workflowRun(h.evaluator, known.id);
      if (run) await this.observeRun(h.evaluator, run);
      return;
    }
    const since = new Date(h.dispatchedAt - SKEW_MS);
    for (const run of await gh.recentWorkflowRuns(h.evaluator, h.workflow, since)) {
      if (evaluationIdOf(run.title) === h.evaluationId && (await this.observeRun(h.evaluator, run))) return;
    }
  }
}
