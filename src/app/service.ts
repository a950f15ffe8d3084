/**
 * The App's core without Probot: records webhook facts, keeps the link index, marks checks
 * `queued` right away, debounces and runs evaluations, and resumes them after a restart.
 * Webhook handlers call into it and return at once; slow work runs in `background`.
 */

import type { MatrixMode } from '../core/matrix-mode.ts';
import { type OrgConfig, suiteFor } from '../core/org-config.schema.ts';
import { pullKey } from '../core/pull-ref.ts';
import type { PullInfo } from '../core/pull-request.schema.ts';
import { CONFIG_WAIT_MS, within } from './bounded-wait.ts';
import { type Ask, storeAsks } from './delivered-requests.ts';
import { DeliveryClaims } from './delivery-claims.ts';
import { type DeliveryClaim, EvaluationRequests, type StoredRequest } from './evaluation-requests.ts';
import { CheckRunRegistry } from './evaluations/check-run-registry.ts';
import type { OrgConfigCache } from './evaluations/org-config-cache.ts';
import { markCommentFinalOn } from './evaluations/publish-evaluation.ts';
import type { PublishedReports } from './evaluations/published-reports.ts';
import { type EvalDeps, type EvalItem, runEvaluation } from './evaluations/run-evaluation.ts';
import { TaskLifecycle } from './evaluations/task-lifecycle.ts';
import type { Executor } from './executors/executor.ts';
import { dequeueChanged } from './merge-command/queue-command.ts';
import { SetQueueRunner } from './merge-command/queue-runner.ts';
import type { AppMetrics, QueueDepth } from './ops/app-metrics.ts';
import type { GitHubPort, GitHubPorts } from './port/github-port.ts';
import { queueClient } from './port/queue-client.ts';
import { replicaName } from './replicas/lease-keeper.ts';
import type { ReplicaCoordination } from './replicas/replica-coordination.ts';
import type { HeldRequest, Store } from './store/store.ts';

export interface ServiceOptions {
  store: Store;
  executor: Executor;
  /** The GitHub port of each installation (over the process's one client per installation). */
  github: GitHubPorts;
  /** The process's one `tandem.yml` cache. */
  configs: OrgConfigCache;
  log: EvalDeps['log'] & { error: (o: object, m: string) => void };
  debounceMs: number;
  concurrency: number;
  /** The merge queue's first wait before landing again after GitHub stopped answering. */
  queueLandingRetryMs?: number;
  /** Where published JSON reports go (their URLs end up in the comments' footers). */
  reports?: PublishedReports;
  /** Replicas on one PostgreSQL database: evaluations owned and sets run one at a time across them. */
  replicas?: ReplicaCoordination;
  /** The App instance's metrics (deliveries here, evaluations in their trail). */
  metrics?: Pick<AppMetrics, 'delivery' | 'evaluationEnded'>;
}

export class TandemService {
  readonly checks: CheckRunRegistry;
  /** The linked-set merge queue (`/tandem merge`, issue 28). */
  readonly queue: SetQueueRunner;
  private readonly life: TaskLifecycle<EvalItem>;
  private readonly runningMembers = new Map<number, Set<string>>();
  /** The last request's turn (`turn`): this process stores and queues requests one at a time. */
  private requests: Promise<void> = Promise.resolve();
  /** Requests stored before they are queued: rows, holds for merges (`evaluation-requests.ts`). */
  private readonly intake: EvaluationRequests;
  /** Webhook deliveries claimed with their work or before it. */
  readonly deliveries: DeliveryClaims;

  constructor(private readonly opts: ServiceOptions) {
    this.deliveries = new DeliveryClaims(opts.store, opts.metrics);
    this.checks = new CheckRunRegistry(opts.store, {
      holder: opts.replicas?.holder,
      leaseMs: opts.replicas?.ttlMs,
    });
    this.intake = new EvaluationRequests({
      store: opts.store,
      configs: opts.configs,
      holder: opts.replicas?.holder ?? replicaName(),
      holdMs: opts.replicas?.ttlMs ?? 15_000,
      ownCreatedMs: opts.replicas?.ttlMs,
      log: opts.log,
    });
    const deps: EvalDeps = {
      store: opts.store,
      checks: this.checks,
      executor: opts.executor,
      github: opts.github,
      configs: opts.configs,
      log: opts.log,
      ...(opts.reports ? { reports: opts.reports } : {}),
      ...(opts.metrics ? { metrics: opts.metrics } : {}),
    };
    this.queue = new SetQueueRunner({
      ...deps,
      // The merge queue is not on the port yet: it takes the client underneath.
      auth: async (id) => queueClient(await opts.github(id)),
      ...(opts.queueLandingRetryMs ? { landingRetryMs: opts.queueLandingRetryMs } : {}),
      background: (fn) => this.background(fn),
    });
    const states = opts.store.evaluations;
    this.life = new TaskLifecycle<EvalItem>(
      {
        concurrency: opts.concurrency,
        debounceMs: opts.debounceMs,
        merge: (w, n) => ({
          ...n,
          evaluationId: w.evaluationId,
          matrix: n.matrix ?? w.matrix,
          // A waiting `--fresh` stays fresh whatever request folds into it.
          fresh: n.fresh === true || w.fresh === true,
        }),
        run: (item, queueSignal, releaseSlot) =>
          this.acrossReplicas(item, queueSignal, async (signal) => {
            const id = item.evaluationId;
            // The seed at once, the whole set once the index has named it: a change to any of them aborts the run.
            this.runningMembers.set(id, new Set([item.seed]));
            this.runningMembers.set(id, new Set([item.seed, ...(await this.intake.componentOf(item.seed))]));
            const asked = await this.intake.withAsked(item);
            try {
              await runEvaluation(deps, asked, signal, releaseSlot);
            } catch (e) {
              // A crash before any verdict (GitHub unreachable, a bug): it must not stay `running`.
              if (!signal.aborted && (await states.stateOf(id)) === 'running') await states.fail(id);
              throw e;
            } finally {
              this.runningMembers.delete(id);
              // Superseded: the newer request owns the check runs. Closing: the restart resumes it.
              if (signal.aborted && !this.life.closing && (await states.stateOf(id)) === 'running')
                await states.supersede(id);
            }
          }),
        // Replicas: a set's requests reach several replicas, but its one queued row runs at its
        // owner; requests folded into it elsewhere move its window too, so a burst runs it once.
        ...(opts.replicas
          ? {
              waitUntil: async (item: EvalItem) => {
                const at = await states.lastAskedAt(item.evaluationId);
                return at === undefined ? undefined : at + opts.debounceMs;
              },
            }
          : {}),
        onError: (e, item) => opts.log.error({ err: e, evaluation: item.evaluationId }, 'evaluation crashed'),
        onDrop: (item) =>
          void this.background(async () => {
            await states.supersede(item.evaluationId);
            await opts.replicas?.disown(item.evaluationId);
          }),
      },
      (e) => opts.log.error({ err: e }, 'background task failed'),
    );
  }

  get store(): Store {
    return this.opts.store;
  }

  get log(): ServiceOptions['log'] {
    return this.opts.log;
  }

  /**
   * Runs a merge of `members` with their evaluations held back, on every replica (rows with a
   * lease: `evaluation-requests.ts`): each merged member's webhook asks to re-evaluate the rest,
   * and a `Tandem` check going back to queued halfway would make GitHub refuse the next member's
   * merge. What was asked meanwhile is scheduled once the merge is over.
   */
  whileMerging<T>(members: readonly string[], merge: () => Promise<T>): Promise<T> {
    return this.intake.whileMerging(members, merge, (r) => this.askHeld(r));
  }

  private async askHeld(r: HeldRequest): Promise<void> {
    if (!this.life.closing)
      await this.request(r.seed, r.installationId, (r.matrix ?? undefined) as MatrixMode | undefined, {
        fresh: r.fresh,
      });
  }

  /** The org's `tandem.yml` as the App reads it now (undefined when missing or invalid). */
  async configFor(gh: GitHubPort, installationId: number, org: string): Promise<OrgConfig | undefined> {
    const load = await this.opts.configs.recent(gh, installationId, org);
    return load.kind === 'ok' ? load.config : undefined;
  }

  /** The linked set around `seed` as the link index knows it now (`/tandem merge` checks it). */
  linkedSet(seed: string): Promise<string[]> {
    return this.intake.componentOf(seed);
  }

  /** Evaluations this process holds, waiting and running (the metrics' queue depth). */
  queueDepth(): QueueDepth {
    return this.life.queue.depth();
  }

  /**
   * A PR webhook (`delivery`: claimed with it): its claim, its facts and links and the queued
   * evaluation of its set are one transaction (`evaluation-requests.ts`); then, in the
   * background, its checks are marked queued. The answer does not wait for GitHub (p99 ≤ 500 ms
   * at 10 in flight, issue 22): a kill after the answer loses nothing (the restart re-queues the
   * evaluation, which ensures the check), a kill or a failure before it commits nothing (the
   * delivery comes again), and the check registry records its intent before each create call.
   */
  async onPull(pull: PullInfo, installationId: number, delivery?: DeliveryClaim): Promise<void> {
    const key = pullKey(pull.ref);
    // Naming the set needs the org config (`group_by_branch`): the first webhooks after a start
    // wait for its one load (shared, bounded), so same-branch PRs are not scheduled as two sets.
    if (pull.state === 'open' && this.opts.configs.config(installationId) === undefined) {
      const loaded = this.background(async () => {
        const gh = await this.opts.github(installationId);
        await this.opts.configs.recent(gh, installationId, pull.ref.owner);
      });
      await within(loaded, CONFIG_WAIT_MS);
    }
    const stored = await this.turn(async () => {
      const stored = await this.intake.deliver(pull, installationId, delivery);
      if (delivery) this.deliveries.counted(stored !== undefined);
      if (!stored) return undefined;
      // The check run request leaves first; queueing the evaluation is local bookkeeping.
      if (pull.state === 'open') void this.background(() => this.markQueued(key, installationId));
      else this.abortContaining(key);
      for (const r of stored) await this.schedule(r);
      return stored;
    });
    if (!stored) return;
    // A queued set whose member moved or closed leaves the merge queue (`queue-command.ts`).
    if (await this.opts.store.setQueue.activeItemOf(key))
      void this.background(async () =>
        dequeueChanged(
          this.queue,
          this.opts.store,
          queueClient(await this.opts.github(installationId)),
          { ...pull, key },
          this.opts.log,
        ),
      );
    if (pull.state !== 'open')
      void this.background(async () => {
        const gh = await this.opts.github(installationId);
        await this.checks.closeStale(gh, key, undefined, 'The pull request was closed.');
        // `/tandem merge` writes its own final state on the members it merges.
        if (!(await this.intake.isMerging(key))) await markCommentFinalOn(gh, pull, this.opts.store.comments);
      });
  }

  /**
   * Schedules an evaluation of the set around `seed` (held while the set is being merged), and
   * resolves once its evaluation row is stored and queued; never rejects (a failure is logged).
   */
  request(
    seed: string,
    installationId: number,
    matrix?: MatrixMode,
    opts: { fresh?: boolean } = {},
  ): Promise<void> {
    return this.background(() =>
      this.requestDelivered(undefined, installationId, [{ seed, matrix, ...opts }]),
    );
  }

  /**
   * A delivery asking for evaluations (`/tandem run`, a re-run): its claim, what `record` writes
   * and each ask's queued row are one transaction (`delivery-claims.ts`), then queued here. False
   * when it was claimed before; rejects when it fails (nothing committed: it can come again).
   */
  async requestDelivered(
    delivery: DeliveryClaim | undefined,
    installationId: number,
    asks: readonly Ask[],
    record?: (tx: Store) => Promise<void>,
  ): Promise<boolean> {
    return await this.turn(async () => {
      const stored = await this.deliveries.recorded(delivery, 'store requested evaluations', async (tx) => {
        await record?.(tx);
        return await storeAsks(this.intake, tx, installationId, asks);
      });
      for (const r of stored?.value ?? []) await this.schedule(r);
      return stored !== undefined;
    });
  }

  /**
   * Runs `fn` once the requests before it are done: storing a request and queueing it here is one
   * step no other request of this process interleaves with. Rejects when `fn` does.
   */
  private turn<T>(fn: () => Promise<T>): Promise<T> {
    const turn = this.requests.then(fn);
    this.requests = turn.then(
      () => {},
      () => {},
    );
    return turn;
  }

  /**
   * Queues a stored request here, unless its row is another's to run: another replica's queued
   * row (it reads this request's facts when it starts), or one starting here already.
   */
  private async schedule(r: StoredRequest): Promise<void> {
    if (r.kind === 'held') return;
    const id = r.item.evaluationId;
    this.abortContaining(r.item.seed, id);
    const replicas = this.opts.replicas;
    if (r.created) await replicas?.own(id);
    else if (this.life.queue.waiting(r.item.setKey)?.evaluationId !== id) {
      if (this.runningMembers.has(id)) return;
      if (replicas && !(await replicas.own(id))) return;
    }
    const item = this.life.queue.push(r.item.setKey, r.item, { absorb: r.component });
    // Only `resume` queues besides requests: a row it made redundant while this one was stored goes.
    if (item.evaluationId !== id) {
      await this.opts.store.evaluations.supersede(id);
      await replicas?.disown(id);
    }
  }

  /**
   * Runs an evaluation as the only one of its set across replicas (`replicas/`), then gives its
   * ownership up; one process alone runs it as it is (its queue keeps one run per set).
   */
  private async acrossReplicas(
    item: EvalItem,
    queueSignal: AbortSignal,
    run: (signal: AbortSignal) => Promise<void>,
  ): Promise<void> {
    const replicas = this.opts.replicas;
    if (!replicas) return run(queueSignal);
    try {
      const ran = await replicas.exclusive(item.setKey, item.evaluationId, queueSignal, async (s) => {
        await run(s);
        return true;
      });
      // Superseded while it waited for another replica to finish the set: the newer one runs.
      if (ran === undefined && !this.life.closing)
        await this.opts.store.evaluations.supersede(item.evaluationId);
    } finally {
      if (!this.life.closing) await replicas.disown(item.evaluationId);
    }
  }

  /**
   * Re-queues what a previous process left queued or running, and adopts in the background the
   * checks it created but did not live to store (`CheckRunRegistry.reconcile`).
   */
  async resume(adoptAlso?: () => Promise<void>): Promise<number> {
    void this.background(async () => {
      const adopted = await this.checks.reconcile(this.opts.github);
      if (adopted > 0) this.opts.log.info({ adopted }, 'check runs of an interrupted process reconciled');
    });
    const resumedQueue = await this.queue.resume();
    if (resumedQueue > 0) this.opts.log.info({ resumed: resumedQueue }, 'merge queue evaluations resumed');
    // Replicas: what a dead replica owned (evaluations, merge holds, and `adoptAlso`'s merge
    // groups, which logs its own trouble) is adopted by the next sweep of a live one.
    this.opts.replicas?.sweep(async () => {
      const adopted = await this.resumeEvaluations().catch((e: unknown) => {
        this.opts.log.error({ err: e }, 'could not adopt the evaluations of a stopped replica');
        return 0;
      });
      if (adopted > 0) this.opts.log.info({ adopted }, 'evaluations of a stopped replica adopted');
      await this.askOrphaned().catch((e: unknown) => {
        this.opts.log.error({ err: e }, 'could not ask what a stopped merge held');
      });
      await adoptAlso?.();
    });
    const resumed = await this.resumeEvaluations();
    await this.askOrphaned();
    return resumed;
  }

  /** Requests held for merges that ended without asking them (their process died). */
  private async askOrphaned(): Promise<void> {
    for (const r of await this.intake.orphaned(this.opts.replicas === undefined)) await this.askHeld(r);
  }

  /** Queues the unfinished evaluations no live process owns (one process: all of them). */
  private async resumeEvaluations(): Promise<number> {
    const states = this.opts.store.evaluations;
    const unfinished = await states.unfinished();
    // A kill can leave two of one set (the running one a newer request was about to supersede,
    // and that request): the queue keeps one per set, so the older is superseded here, not lost.
    const newest = new Map<string, number>();
    for (const e of unfinished) newest.set(e.setKey, Math.max(e.id, newest.get(e.setKey) ?? 0));
    let resumed = 0;
    for (const e of unfinished) {
      // Another replica's (alive: its lease lasts), or already this one's.
      if (this.opts.replicas && !(await this.opts.replicas.own(e.id))) continue;
      // Read before it was owned: its owner may have run it to its end since (then it is not ours).
      const now = this.opts.replicas ? await states.stateOf(e.id) : e.state;
      if (now !== 'queued' && now !== 'running') {
        await this.opts.replicas?.disown(e.id);
        continue;
      }
      resumed += 1;
      // Superseded before a requeue: the database keeps one queued row per set.
      if (newest.get(e.setKey) !== e.id) {
        await states.supersede(e.id);
        await this.opts.replicas?.disown(e.id);
        continue;
      }
      if (now === 'running') await states.requeue(e.id);
      const queued = this.life.queue.push(
        e.setKey,
        {
          evaluationId: e.id,
          setKey: e.setKey,
          seed: e.seed,
          installationId: e.installationId,
          matrix: (e.matrix ?? undefined) as MatrixMode | undefined,
        },
        // Left by a stopped process: its window was over long ago (or it was running).
        { delayMs: 0, extendable: false },
      );
      // Adopted while this replica already waits to run the set: the waiting row stands for both.
      if (queued.evaluationId !== e.id) {
        await states.supersede(e.id);
        await this.opts.replicas?.disown(e.id);
      }
    }
    return resumed;
  }

  /** Starts what is debouncing now instead of at the end of its window. */
  flush(): void {
    this.life.queue.flush();
  }

  /**
   * Resolves when no evaluation or background task is pending. With `flush`, debounce windows
   * end at once, including those that work still pending opens (tests settle a scenario so).
   */
  idle(opts: { flush?: boolean } = {}): Promise<void> {
    return this.life.idle(opts);
  }

  /**
   * Stops everything this service started, and resolves once it has stopped: the queue (its
   * debounce timers; running evaluations are aborted and awaited, and stay `running` for the
   * restart to resume), then the background tasks (webhook work, which may still be finishing
   * what a webhook began), then check runs being created. After this the store may close.
   */
  async close(): Promise<void> {
    this.queue.close();
    await this.life.close();
    await this.checks.settled();
  }

  invalidateConfig(installationId: number): void {
    this.opts.configs.invalidate(installationId);
  }

  /** Runs `fn` in the background (errors logged); the returned promise never rejects. */
  background(fn: () => Promise<unknown>): Promise<void> {
    return this.life.track(fn());
  }

  /** The `queued` check run right away, for PRs a suite covers or that link elsewhere. */
  private async markQueued(key: string, installationId: number): Promise<void> {
    const pull = await this.opts.store.pulls.get(key);
    if (pull?.state !== 'open') return;
    const gh = await this.opts.github(installationId);
    const cfg = await this.opts.configs.recent(gh, installationId, pull.owner);
    if (cfg.kind === 'missing') return;
    // A repository no suite covers gets no check: nothing would ever complete it.
    if (cfg.kind === 'ok' && !suiteFor(cfg.config, `${pull.owner}/${pull.repo}`)) return;
    await this.checks.ensure(gh, key, pull.headSha, null);
  }

  /** Aborts the runs here whose set holds `key` (but evaluation `except`, which is to run). */
  private abortContaining(key: string, except?: number): void {
    this.life.queue.abortWhere(
      (_k, item) =>
        item.evaluationId !== except && (this.runningMembers.get(item.evaluationId)?.has(key) ?? false),
    );
  }
}
