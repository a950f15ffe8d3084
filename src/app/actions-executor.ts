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
 * Organizations on `executor: local` (or evaluations this cannot place) go to `fallback`.
 */
import { repoOf } from '../core/linked-set.ts';
import { type OrgConfig, suiteFor } from '../core/org-config.schema.ts';
import type { Report } from '../core/report.schema.ts';
import {
  dispatchWorkflow,
  getWorkflowRun,
  linkCheckRun,
  recentWorkflowRuns,
  type WorkflowRunInfo,
} from '../github/actions.ts';
import { type GitHub, repoId } from '../github/octokit.ts';
import { loadOrgConfig } from '../github/org-config.ts';
import { getRepo } from '../github/pull-requests.ts';
import { readRunReport } from './actions-report.ts';
import type { Executor, LinkedChangeSpec } from './executor.ts';
import { type Handoff, HandoffStore } from './handoff-store.ts';
import type { Store, StoredEvaluation } from './store.ts';

export interface ActionsExecutorOptions {
  store: Store;
  /** Runs evaluations of organizations on `executor: local`. */
  fallback: Executor;
  auth: (installationId: number) => Promise<GitHub>;
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
  /** The check-run update in flight per evaluation. */
  private readonly progress = new Map<number, Promise<void>>();
  /** One client per installation: its auth hook renews the token, so it can be reused. */
  private readonly clients = new Map<number, Promise<GitHub>>();

  constructor(private readonly opts: ActionsExecutorOptions) {
    this.handoffs = new HandoffStore(opts.store.db);
  }

  async run(change: LinkedChangeSpec, signal: AbortSignal): Promise<Report> {
    const evaluation = this.evaluationOf(change);
    if (!evaluation) return this.opts.fallback.run(change, signal);
    const gh = await this.client(evaluation.installationId);
    const cfg = await loadOrgConfig(gh, evaluation.seed.slice(0, evaluation.seed.indexOf('/')));
    if (cfg.kind !== 'ok' || cfg.config.executor !== 'actions') return this.opts.fallback.run(change, signal);
    return this.handOff(gh, evaluation, change, cfg.config, signal);
  }

  /**
   * A `workflow_run` event (or a polled run) of `repo`. False when it belongs to no evaluation
   * waiting on Actions: another workflow, an unknown or finished evaluation. Resolves once the
   * check runs link to the run, so a completion is published after the link, never before.
   */
  async observeRun(repo: string, run: WorkflowRunInfo): Promise<boolean> {
    const id = evaluationIdOf(run.title);
    const h = id === undefined ? undefined : this.handoffs.get(id);
    if (!h || h.evaluator.toLowerCase() !== repo.toLowerCase()) return false;
    if (run.path && run.path.split('/').pop() !== h.workflow) return false;
    if (Date.parse(run.createdAt) < h.dispatchedAt - SKEW_MS) return false;
    const evaluation = this.opts.store.getEvaluation(h.evaluationId);
    if (evaluation?.state !== 'running') return false;
    // The first run seen is the evaluation's; a completed run does not go back to in progress.
    if (h.run && (h.run.id !== run.id || (h.run.status === 'completed' && run.status !== 'completed')))
      return false;
    this.handoffs.recordRun(h.evaluationId, run);
    if (!h.run) await this.showProgress(evaluation);
    this.waiters.get(h.evaluationId)?.();
    return true;
  }

  private client(installationId: number): Promise<GitHub> {
    let c = this.clients.get(installationId);
    if (!c) {
      c = this.opts.auth(installationId);
      c.catch(() => this.clients.delete(installationId));
      this.clients.set(installationId, c);
    }
    return c;
  }

  /** The running evaluation this change belongs to: same members at the same heads, newest first. */
  private evaluationOf(change: LinkedChangeSpec): StoredEvaluation | undefined {
    const want = change.targets.map((t) => `${t.repo.toLowerCase()}@${t.head}`).sort();
    return this.opts.store
      .unfinishedEvaluations()
      .reverse()
      .find(
        (e) =>
          e.state === 'running' &&
          e.members.length === want.length &&
          e.members
            .map((m) => `${repoOf(m.key)}@${m.headSha}`)
            .sort()
            .every((k, i) => k === want[i]),
      );
  }

  private async handOff(
    gh: GitHub,
    evaluation: StoredEvaluation,
    change: LinkedChangeSpec,
    config: OrgConfig,
    signal: AbortSignal,
  ): Promise<Report> {
    signal.throwIfAborted();
    const evaluator = repoId(config.evaluator);
    const { workflow } = config.actions;
    const heads = evaluation.members.map((m) => `${m.key}@${m.headSha}`).sort();
    let h = this.handoffs.get(evaluation.id);
    const resumed =
      h !== undefined &&
      h.evaluator === config.evaluator &&
      h.workflow === workflow &&
      h.heads.join(' ') === heads.join(' ');
    if (!h || !resumed) {
      const suite = suiteFor(config, repoOf(evaluation.seed));
      // PR references as the repositories spell them (the store keeps keys lower-case).
      const pulls = evaluation.members.map((m) => {
        const target = change.targets.find((t) => t.repo.toLowerCase() === repoOf(m.key));
        return `${target?.repo ?? repoOf(m.key)}${m.key.slice(m.key.indexOf('#'))}`;
      });
      const ref = config.actions.ref ?? (await getRepo(gh, evaluator)).defaultBranch;
      // Stored before dispatching: the run's first webhook can beat the dispatch's answer.
      h = this.handoffs.save({
        evaluationId: evaluation.id,
        evaluator: config.evaluator,
        workflow,
        heads,
        dispatchedAt: Date.now(),
      });
      try {
        await dispatchWorkflow(gh, evaluator, workflow, ref, {
          'pull-requests': pulls.join(' '),
          suite: suite?.path ?? '',
          matrix: change.matrix,
          'evaluation-id': String(evaluation.id),
        });
      } catch (e) {
        this.handoffs.delete(evaluation.id);
        throw new Error(
          `could not start the \`${workflow}\` workflow of ${config.evaluator}: ${(e as Error).message}`,
        );
      }
      this.opts.log.info({ evaluation: evaluation.id, evaluator: config.evaluator }, 'dispatched to Actions');
    }
    await this.showProgress(evaluation);
    const run = await this.waitForRun(
      gh,
      h,
      h.dispatchedAt + config.actions.timeout_minutes * 60_000,
      signal,
    );
    return readRunReport(gh, evaluator, run);
  }

  /** Resolves with the completed run; rejects on abort or at the deadline. */
  private waitForRun(
    gh: GitHub,
    h: Handoff,
    deadline: number,
    signal: AbortSignal,
  ): Promise<NonNullable<Handoff['run']>> {
    const id = h.evaluationId;
    return new Promise((resolve, reject) => {
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        clearInterval(poll);
        this.waiters.delete(id);
        signal.removeEventListener('abort', onAbort);
        settle();
      };
      const check = () => {
        const run = this.handoffs.get(id)?.run;
        if (run?.status === 'completed') finish(() => resolve(run));
      };
      const onAbort = () => finish(() => reject(signal.reason ?? new Error('aborted')));
      const minutes = Math.round((deadline - h.dispatchedAt) / 60_000);
      const timer = setTimeout(
        () => finish(() => reject(new Error(`the workflow run did not complete within ${minutes} minutes`))),
        Math.max(0, deadline - Date.now()),
      );
      const ask = () =>
        this.reconcile(gh, h).then(check, (e) =>
          this.opts.log.warn(
            { err: (e as Error).message, evaluation: id },
            'reading the workflow run failed',
          ),
        );
      const poll = setInterval(() => void ask(), this.opts.pollMs ?? 5 * 60_000);
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.set(id, check);
      check();
      // Events may have been missed (the App was down, or the run started before we listened).
      void ask();
    });
  }

  /** Asks GitHub about the evaluation's run: by id once known, else among the workflow's recent runs. */
  private async reconcile(gh: GitHub, h: Handoff): Promise<void> {
    const evaluator = repoId(h.evaluator);
    const known = this.handoffs.get(h.evaluationId)?.run;
    if (known) {
      const run = await getWorkflowRun(gh, evaluator, known.id);
      if (run) await this.observeRun(h.evaluator, run);
      return;
    }
    const since = new Date(h.dispatchedAt - SKEW_MS);
    for (const run of await recentWorkflowRuns(gh, evaluator, h.workflow, since)) {
      if (evaluationIdOf(run.title) === h.evaluationId && (await this.observeRun(h.evaluator, run))) return;
    }
  }

  /**
   * Every member's check run stays `in_progress`, pointing at the run once it is known. Updates
   * of one evaluation run one after another and each reads the latest state, so a late
   * "dispatched" never overwrites the link.
   */
  private showProgress(evaluation: StoredEvaluation): Promise<void> {
    const id = evaluation.id;
    const next = (this.progress.get(id) ?? Promise.resolve())
      .then(() => this.writeProgress(evaluation))
      .catch((e) =>
        this.opts.log.warn({ err: (e as Error).message, evaluation: id }, 'linking check runs failed'),
      );
    this.progress.set(id, next);
    void next.then(() => {
      if (this.progress.get(id) === next) this.progress.delete(id);
    });
    return next;
  }

  private async writeProgress(evaluation: StoredEvaluation): Promise<void> {
    const h = this.handoffs.get(evaluation.id);
    if (!h) return;
    const gh = await this.client(evaluation.installationId);
    const members = evaluation.members.map((m) => m.key).join(', ');
    const link = h.run
      ? {
          url: h.run.url,
          title: 'Tandem: evaluating in GitHub Actions',
          summary: `Evaluating in GitHub Actions: ${h.run.url}\n\nLinked change: ${members}.`,
        }
      : {
          title: 'Tandem: dispatched to GitHub Actions',
          summary: `Dispatched to the \`${h.workflow}\` workflow of \`${h.evaluator}\`; waiting for the run to start.\n\nLinked change: ${members}.`,
        };
    for (const m of evaluation.members) {
      const c = this.opts.store.getCheckRun(m.key, m.headSha);
      if (!c || c.completed || c.evaluationId !== evaluation.id) continue;
      await linkCheckRun(gh, repoId(repoOf(m.key)), c.checkRunId, link);
    }
  }
}
