/**
 * `executor: workers`: the evaluation's configurations run on `tandem worker` processes (hosts the
 * evaluator owns) that share a PostgreSQL database (`DATABASE_URL`) with the App. The change is
 * split through the engine's own matrix plan into one job per configuration; the change itself —
 * clone URLs, suite and hidden files — is stored once as the evaluation's bundle, which only
 * workers read and which is deleted when the evaluation ends. When a live host already holds the
 * change's repositories, each job goes to that host's queue first and to the shared queue after
 * a grace (or at once, when no host does). A job's lease is renewed by its worker's heartbeat
 * (worker-tables.ts), so only a silent worker loses it. Results arrive by NOTIFY; they are
 * checked (bound to the job's claim, of this change and configuration, capped) and graded into
 * the report a local evaluation gives (worker-results.ts). Changes of organizations on
 * another executor go to `fallback`.
 */
import { randomUUID } from 'node:crypto';
import { InfraError } from '../../core/errors.ts';
import type { EvaluationEvent } from '../../core/evaluation-event.ts';
import { type PlannedConfiguration, planMatrix } from '../../core/matrix-plan.ts';
import type { Report } from '../../core/report.schema.ts';
import {
  DEAD_QUEUE,
  DEFAULT_LEASE_SECONDS,
  hostQueue,
  JOBS_CHANNEL,
  MAX_OUTCOME_BYTES,
  MAX_RESULT_BYTES,
  RESULTS_CHANNEL,
  SHARED_QUEUE,
  type WorkerJob,
} from '../../core/worker-job.schema.ts';
import { runProgress } from '../../engine/pipeline/run-progress.ts';
import type { JobQueue } from '../../engine/workers/job-queue.ts';
import type { Executor, LinkedChangeSpec } from './executor.ts';
import { bundleOf } from './worker-bundle.ts';
import { handleDeadLetters } from './worker-dead-letters.ts';
import {
  type CheckedResult,
  checkResult,
  type ExpectedChange,
  gradeWorkerResults,
  runsOf,
} from './worker-results.ts';

export interface WorkersExecutorOptions {
  /** Empty: the App was started without `DATABASE_URL`, and a workers evaluation says so. */
  databaseUrl: string;
  /** Runs evaluations of organizations not on `executor: workers`. */
  fallback: Executor;
  /**
   * A job's lease: the worker running it renews it by heartbeat, however long the configuration
   * takes; one silent this long (dead, frozen, cut off) is taken for dead and the job retried
   * elsewhere. Default DEFAULT_LEASE_SECONDS.
   */
  leaseSeconds?: number;
  /**
   * How long the shared copy of a job sent to its preferred host (one with a free slot) waits
   * before any worker may take it (default 3 s).
   */
  graceSeconds?: number;
  /** Retries of a job whose worker died (its lease expired) before the configuration is an infrastructure error. */
  retries?: number;
  /**
   * A worker host silent this long (no heartbeat) is taken for dead: the configurations it claimed
   * for this evaluation are sent again at once instead of after their lease (default 30 s, six
   * missed heartbeats).
   */
  silentSeconds?: number;
  /** How often pg-boss looks for expired leases (seconds; its default when unset). */
  maintenanceSeconds?: number;
  log: { warn: (o: object, m: string) => void };
}

interface Waiting {
  check(): void;
}

export class WorkersExecutor implements Executor {
  private queue: Promise<JobQueue> | undefined;
  private readonly waiting = new Map<string, Waiting>();
  private prune: NodeJS.Timeout | undefined;

  constructor(private readonly opts: WorkersExecutorOptions) {}

  /** Readiness is the fallback's (Docker for the local engine): this App host runs no configuration of a worker pool. */
  ready(): Promise<string> {
    return this.opts.fallback.ready?.() ?? Promise.resolve('no dependency');
  }

  /** The connection, opened on the first evaluation that needs it (pg-boss is loaded then). */
  private open(): Promise<JobQueue> {
    this.queue ??= (async () => {
      const { openJobQueue } = await import('../../engine/workers/job-queue.ts');
      const q = await openJobQueue({
        databaseUrl: this.opts.databaseUrl,
        ...(this.opts.maintenanceSeconds ? { maintenanceSeconds: this.opts.maintenanceSeconds } : {}),
        onError: (e) => this.opts.log.warn({ err: e.message }, 'worker pool database trouble'),
      });
      const rows = await import('../../engine/workers/worker-tables.ts');
      await rows.pruneWorkerRows(q.db);
      // The evaluations of an App that was killed: their bundles stop being renewed, and go.
      this.prune = setInterval(
        () =>
          void rows
            .pruneAbandoned(q.db)
            .catch((e: unknown) =>
              this.opts.log.warn({ err: (e as Error).message }, 'worker pool database trouble'),
            ),
        (rows.BUNDLE_ALIVE_SECONDS * 1000) / 3,
      );
      this.prune.unref();
      await q.listen(RESULTS_CHANNEL, (evaluation) => this.waiting.get(evaluation)?.check());
      // Jobs whose every attempt lost its worker (worker-dead-letters.ts).
      await handleDeadLetters(q, {
        leaseSeconds: this.opts.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
        retries: this.opts.retries ?? 2,
      });
      return q;
    })();
    this.queue.catch(() => {
      this.queue = undefined;
    });
    return this.queue;
  }

  async close(): Promise<void> {
    clearInterval(this.prune);
    const q = this.queue;
    this.queue = undefined;
    if (q) await (await q.catch(() => undefined))?.close();
  }

  async run(
    change: LinkedChangeSpec,
    signal: AbortSignal,
    onEvent?: (event: EvaluationEvent) => void,
  ): Promise<Report> {
    if (!change.workers) return this.opts.fallback.run(change, signal, onEvent);
    signal.throwIfAborted();
    if (!this.opts.databaseUrl)
      throw new InfraError(
        'engine',
        'tandem.yml says `executor: workers`, but the App was started without DATABASE_URL (the PostgreSQL database its workers share)',
      );
    const rows = await import('../../engine/workers/worker-tables.ts');
    const q = await this.open().catch((e: unknown) => {
      throw new InfraError(
        'engine',
        `the worker pool's database could not be reached: ${(e as Error).message}`,
      );
    });
    const plan = planMatrix(
      change.targets.map((t) => t.repo),
      change.matrix,
    );
    onEvent?.({
      type: 'plan',
      configurations: plan.configurations.map((c) => ({ id: c.id, applied: c.applied })),
      mode: plan.mode,
    });
    const evaluation = randomUUID();
    const bundle = await bundleOf(change);
    const lease = this.opts.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
    try {
      await rows.putBundle(q.db, evaluation, JSON.stringify(bundle));
      const repos = [...change.targets, ...change.context].map((r) => r.repo);
      // Only a host that beats now: a silent one's queue would hold the jobs until the grace ends.
      const preferred = await rows.preferredHost(q.db, repos, this.opts.silentSeconds ?? SILENT_SECONDS);
      // Affinity is a preference, never a reason for an idle worker to wait while jobs queue: the
      // preferred host gets as many jobs as it has free slots (less what already waits on its
      // queue), the rest go to the shared queue at once, for any worker.
      const free = preferred
        ? preferred.free - ((await q.boss.getQueueSize(hostQueue(preferred.hostId))) ?? 0)
        : 0;
      const grace = this.opts.graceSeconds ?? DEFAULT_GRACE_SECONDS;
      const job = (configuration: string, copy: WorkerJob['copy']): WorkerJob => ({
        evaluation,
        configuration,
        copy,
        deferrals: 0,
      });
      const sendShared = (configuration: string, startAfter?: number) =>
        q.boss.send(SHARED_QUEUE, job(configuration, 'shared'), {
          expireInSeconds: lease,
          retryLimit: this.opts.retries ?? 2,
          deadLetter: DEAD_QUEUE,
          ...(startAfter ? { startAfter } : {}),
        });
      // The verdict first: the all-base and full configurations are sent (and so taken) first.
      const order = [...plan.configurations].sort((a, b) => rank(a.role) - rank(b.role));
      for (const [i, c] of order.entries()) {
        const toHost = preferred && i < free ? preferred.hostId : undefined;
        if (toHost)
          await q.boss.send(hostQueue(toHost), job(c.id, 'host'), { expireInSeconds: lease, retryLimit: 0 });
        await sendShared(c.id, toHost ? grace : undefined);
      }
      await q.db.query(`SELECT pg_notify('${JOBS_CHANNEL}', $1)`, [evaluation]);
      // Each configuration's event as its answer arrives, judged as a local run's (the verdict first).
      const progress = runProgress({
        failToPass: change.suite.fail_to_pass,
        passToPass: change.suite.pass_to_pass,
        baseId: plan.configurations.find((c) => c.role === 'base')?.id,
        fullId: plan.configurations.find((c) => c.role === 'full')?.id,
        emit: (e) => onEvent?.(e),
      });
      const expected: ExpectedChange = {
        name: change.name,
        suite: change.suite,
        matrix: change.matrix,
        targets: change.targets,
        context: change.context,
      };
      // A worker killed mid-job stores nothing and its job's lease is long: its claim is
      // released once its host is silent, and the configuration sent again for a live worker.
      const silent = this.opts.silentSeconds ?? SILENT_SECONDS;
      const watch = setInterval(
        () =>
          void rows
            .renewBundle(q.db, evaluation)
            .then(() => rows.releaseSilentClaims(q.db, evaluation, silent))
            .then(async (released) => {
              for (const r of released) {
                this.opts.log.warn(
                  { evaluation, configuration: r.configuration, host: r.hostId },
                  'a worker host went silent mid-job; its configuration is sent again',
                );
                await sendShared(r.configuration);
              }
              if (released.length > 0)
                await q.db.query(`SELECT pg_notify('${JOBS_CHANNEL}', $1)`, [evaluation]);
              // A NOTIFY lost (its LISTEN connection dropped and came back) must not hold the run.
              this.waiting.get(evaluation)?.check();
            })
            .catch((e: unknown) =>
              this.opts.log.warn({ evaluation, err: (e as Error).message }, 'worker pool database trouble'),
            ),
        Math.max(1, Math.min(silent / 3, rows.HEARTBEAT_SECONDS)) * 1000,
      );
      const results = await this.wait(q, evaluation, plan.configurations, expected, signal, (c, r) => {
        for (const run of runsOf(c, r)) progress.done(run);
      }).finally(() => clearInterval(watch));
      return gradeWorkerResults(plan.configurations, results);
    } finally {
      await rows.dropEvaluation(q.db, evaluation).catch(() => {});
    }
  }

  /** Resolves when every configuration has a result (checked on each NOTIFY for this evaluation). */
  private async wait(
    q: JobQueue,
    evaluation: string,
    planned: readonly PlannedConfiguration[],
    expected: ExpectedChange,
    signal: AbortSignal,
    onAnswer: (c: PlannedConfiguration, r: CheckedResult) => void,
  ): Promise<Map<string, CheckedResult>> {
    const answers = new Map<string, CheckedResult>();
    const ignored = new Set<string>();
    const { resultsOf } = await import('../../engine/workers/worker-tables.ts');
    const caps = { reportBytes: MAX_RESULT_BYTES, outcomeBytes: MAX_OUTCOME_BYTES };
    return new Promise((resolve, reject) => {
      let reading = Promise.resolve();
      const finish = () => {
        this.waiting.delete(evaluation);
        signal.removeEventListener('abort', aborted);
      };
      const aborted = () => {
        finish();
        reject(new InfraError('aborted', 'the evaluation was interrupted'));
      };
      const check = () => {
        reading = reading.then(async () => {
          if (signal.aborted || !this.waiting.has(evaluation)) return;
          try {
            for (const r of await resultsOf(q.db, evaluation, caps, [...answers.keys()])) {
              const c = planned.find((p) => p.id === r.configuration);
              if (!c || answers.has(c.id)) continue;
              // A report under no current claim (a forged row, or a worker that lost the job) is
              // left unread: the configuration's holder answers under its own.
              if (
                !r.bound &&
                r.outcome !== undefined &&
                (r.outcome as { kind?: unknown }).kind === 'report'
              ) {
                if (!ignored.has(r.token))
                  this.opts.log.warn(
                    { evaluation, configuration: c.id },
                    'a worker report not stored under the configuration claim was ignored',
                  );
                ignored.add(r.token);
                continue;
              }
              const checked = checkResult(r, c, expected);
              answers.set(c.id, checked);
              onAnswer(c, checked);
            }
            if (answers.size < planned.length) return;
            finish();
            resolve(answers);
          } catch (e) {
            finish();
            reject(new InfraError('engine', `the worker results could not be read: ${(e as Error).message}`));
          }
        });
      };
      this.waiting.set(evaluation, { check });
      signal.addEventListener('abort', aborted);
      // Superseded while its jobs were being sent: the abort event has passed, nothing would
      // settle this wait, and the set would stay held by a run nobody waits for.
      if (signal.aborted) return aborted();
      // Results stored before this listener was registered.
      check();
    });
  }
}

/**
 * How long the shared copy of a job sent to its preferred host waits: that host had a free slot
 * when it was sent, so this only covers a race (another App filled the slot first).
 */
const DEFAULT_GRACE_SECONDS = 3;
/** Six missed heartbeats (worker-tables.ts `HEARTBEAT_SECONDS`): the host is taken for dead. */
const SILENT_SECONDS = 30;
const rank = (role: string) => (role === 'base' ? 0 : role === 'full' ? 1 : 2);
