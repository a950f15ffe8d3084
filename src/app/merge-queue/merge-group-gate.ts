/**
 * Gating GitHub's merge queue: every `merge_group.checks_requested` gets a `Tandem` check run
 * on the group's head SHA right away (queued), evaluated in its own queue (one run per group,
 * at most `concurrency` at once), and always completed: with the verdict, `neutral` when there
 * is nothing to gate, `failure` for a suite or infrastructure error, or `cancelled` when the
 * group is destroyed (or the App stops) first. Without a completed check the queue would wait
 * until its own timeout.
 *
 * Each open group is stored (`store.mergeGroups`) until its check is completed: a restart, like
 * a crash, resumes the groups GitHub is still waiting on (`resume`), reusing their check runs.
 * Storing the row is the claim: of two replicas (or two requests) only the one that inserted it
 * gates the group; the webhook's delivery is claimed in the same transaction.
 *
 * Replicas (`leases`): the gating replica holds the group's lease (`merge-group:<key>`, taken in
 * the transaction that stores the row, renewed while it gates), and every replica's sweep adopts
 * the open groups whose lease is free (`adopt`): a replica that dies mid-gate leaves its groups
 * to a live one once the lease expires, with no restart. One process alone resumes at its start.
 */
import { scrubCredentials } from '../../core/credentials.ts';
import { type MergeGroup, mergeGroupKey } from '../../core/merge-group.schema.ts';
import { CHECK_NAME } from '../../github/check-runs.ts';
import { renderMergeGroupCancelled, renderMergeGroupError } from '../../report/merge-group-check.ts';
import { TaskLifecycle } from '../evaluations/task-lifecycle.ts';
import type { GitHubPorts } from '../port/github-port.ts';
import type { Store } from '../store/store.ts';
import { type GroupLease, type GroupLeases, mergeGroupLease } from './group-leases.ts';
import {
  evaluateMergeGroup,
  labelOf,
  type MergeGroupDeps,
  type MergeGroupOutcome,
} from './merge-group-evaluation.ts';

export interface MergeGroupGateOptions extends MergeGroupDeps {
  github: GitHubPorts;
  concurrency: number;
  log: MergeGroupDeps['log'] & { error: (o: object, m: string) => void };
  /** Replicas on one PostgreSQL database: groups gated under a lease, adopted when it expires. */
  leases?: GroupLeases;
}

interface Job {
  key: string;
  group: MergeGroup;
  /** The check run on the group's head SHA, once created (undefined if creating it failed). */
  checkRun: Promise<number | undefined>;
  /** Why it ends without a verdict, when it does (destroyed). */
  cancelled?: string;
  /** Replicas: this replica's lease on the group while it gates it. */
  lease?: GroupLease | undefined;
}

const WITHDRAWN = 'The merge group was withdrawn before Tandem finished evaluating it.';

export class MergeGroupGate {
  private readonly life: TaskLifecycle<Job>;
  /** Groups with a check run not yet completed, by `mergeGroupKey`. */
  private readonly jobs = new Map<string, Job>();
  /** Groups a request is storing now (not jobs yet): the sweep leaves them alone. */
  private readonly opening = new Set<string>();

  constructor(private readonly opts: MergeGroupGateOptions) {
    this.life = new TaskLifecycle<Job>(
      {
        concurrency: opts.concurrency,
        debounceMs: 0,
        run: (job, signal) => this.run(job, signal),
        onError: (e, job) => opts.log.error({ err: e, mergeGroup: job.key }, 'merge group run crashed'),
        // Withdrawn before it started (destroyed): the queued check is closed with the reason.
        onDrop: (job) => this.track(this.finish(job, undefined)),
      },
      (e) => opts.log.error({ err: e }, 'merge group check update failed'),
    );
  }

  /**
   * `checks_requested`: a queued check on the head SHA now, the evaluation in the queue. `claim`
   * (the webhook's delivery) commits in the transaction that stores the group, or nothing does.
   */
  async request(group: MergeGroup, claim?: (tx: Store) => Promise<boolean>): Promise<void> {
    const key = mergeGroupKey(group);
    // A second request for a group already being gated (GitHub re-requesting) changes nothing.
    if (this.jobs.has(key) || this.opening.has(key)) return;
    this.opening.add(key);
    try {
      const opened = await this.open(key, group, claim);
      // Replicas: the lease taken with the row, renewed from now on (false: lost already).
      const lease = opened ? await this.opts.leases?.tryHold(mergeGroupLease(key)) : undefined;
      if (!opened || (this.opts.leases && !lease)) return;
      // Stopping: the restart, or another replica's sweep, resumes it from the store.
      if (this.life.closing) return void (await lease?.release());
      this.enqueue({ key, group, checkRun: this.createCheck(key, group), lease });
    } finally {
      this.opening.delete(key);
    }
  }

  /**
   * Stores the group: true for the one request whose insert stored it, in this process or any
   * replica sharing the database (the row is the claim, so two replicas never both check one
   * group); with replicas its lease is taken in the same transaction, so no sweep adopts it first.
   */
  private async open(
    key: string,
    group: MergeGroup,
    claim?: (tx: Store) => Promise<boolean>,
  ): Promise<boolean> {
    const leases = this.opts.leases;
    return await this.opts.store.transaction(async (tx) => {
      if (claim && !(await claim(tx))) return false;
      if (!(await tx.mergeGroups.open(key, group))) return false;
      if (leases) await tx.leases.acquire(mergeGroupLease(key), leases.holder, leases.ttlMs);
      return true;
    }, 'open a merge group');
  }

  /**
   * Queues the groups a previous process left open (their check runs are reused); with replicas,
   * only those no live replica gates (`adopt`).
   */
  async resume(): Promise<number> {
    if (this.opts.leases) return this.adopt();
    const { open, dropped } = await this.opts.store.mergeGroups.all();
    if (dropped.length > 0) this.opts.log.warn({ dropped }, 'unreadable merge groups dropped');
    for (const { key, group, checkRunId } of open) {
      if (this.jobs.has(key)) continue;
      this.enqueue({ key, group, checkRun: this.checkRunOf(key, group, checkRunId) });
    }
    return open.length;
  }

  /**
   * Replicas (every sweep): takes over the open groups whose lease is free (their gate died, or
   * stopped), reusing their check runs. Returns how many it took.
   */
  async adopt(): Promise<number> {
    const leases = this.opts.leases;
    if (!leases || this.life.closing) return 0;
    const { open, dropped } = await this.opts.store.mergeGroups.all();
    if (dropped.length > 0) this.opts.log.warn({ dropped }, 'unreadable merge groups dropped');
    let adopted = 0;
    for (const { key } of open) {
      if (this.jobs.has(key) || this.opening.has(key)) continue;
      const lease = await leases.tryHold(mergeGroupLease(key));
      if (!lease) continue;
      // Read again under the lease: its gate may have completed it since the list was read.
      const row = await this.opts.store.mergeGroups.get(key);
      if (!row || this.life.closing || this.jobs.has(key)) {
        await lease.release();
        continue;
      }
      this.enqueue({
        key,
        group: row.group,
        checkRun: this.checkRunOf(key, row.group, row.checkRunId),
        lease,
      });
      adopted += 1;
    }
    return adopted;
  }

  /** `adopt`, for the replicas' sweep: never rejects (trouble is logged, the next sweep tries again). */
  async sweep(): Promise<void> {
    try {
      const adopted = await this.adopt();
      if (adopted > 0) this.opts.log.info({ adopted }, 'merge groups of a stopped replica adopted');
    } catch (e) {
      this.opts.log.error({ err: e }, 'could not adopt the merge groups of a stopped replica');
    }
  }

  /** The group's stored check run, or a new one when none was stored. */
  private checkRunOf(key: string, group: MergeGroup, stored: number | null): Promise<number | undefined> {
    return stored === null ? this.createCheck(key, group) : Promise.resolve(stored);
  }

  /** `destroyed`: an evaluation still waiting or running for the group is withdrawn. */
  destroy(group: MergeGroup, reason: string): void {
    const key = mergeGroupKey(group);
    const job = this.jobs.get(key);
    if (!job) return;
    job.cancelled = `GitHub destroyed this merge group (${reason}) before Tandem finished evaluating it.`;
    this.life.queue.cancel(key);
  }

  /** Resolves when no group is waiting, running or being closed. */
  idle(): Promise<void> {
    return this.life.idle();
  }

  /**
   * Stops the queue and resolves once nothing runs: running groups are aborted and stay stored
   * with their check open, for the restart to resume.
   */
  close(): Promise<void> {
    return this.life.close();
  }

  private enqueue(job: Job): void {
    this.jobs.set(job.key, job);
    this.life.queue.push(job.key, job, { delayMs: 0 });
  }

  /** The queued check run on the group's head SHA, recorded with the group; undefined if GitHub refused. */
  private createCheck(key: string, group: MergeGroup): Promise<number | undefined> {
    const created = this.opts
      .github(group.installationId)
      .then((gh) =>
        gh.createQueuedCheck(
          `${group.owner}/${group.repo}`,
          group.headSha,
          `merge-group:${group.headRef}`,
          'Waiting for the merge group to be evaluated.',
        ),
      )
      .then(async (id) => {
        await this.opts.store.mergeGroups.setCheckRun(key, id);
        return id;
      })
      .catch((e: unknown) => {
        this.opts.log.error({ err: e, mergeGroup: key }, 'could not create the merge group check run');
        return undefined;
      });
    // `close` waits for it: its id must reach the store before the store closes.
    this.track(created.then(() => {}));
    return created;
  }

  private async run(job: Job, queueSignal: AbortSignal): Promise<void> {
    // A lease lost (this replica stalled past its expiry) aborts it: the adopter completes it.
    const signal = job.lease ? AbortSignal.any([queueSignal, job.lease.lost]) : queueSignal;
    // A check GitHub refused to create is tried once more: without one the queue waits in vain.
    const id =
      (await job.checkRun) ?? (signal.aborted ? undefined : await this.createCheck(job.key, job.group));
    if (id === undefined) {
      if (!this.life.closing) await this.forget(job);
      return;
    }
    job.checkRun = Promise.resolve(id);
    if (signal.aborted) return this.stop(job);
    let outcome: MergeGroupOutcome | undefined;
    try {
      const gh = await this.opts.github(job.group.installationId);
      await gh.markInProgress(labelOf(job.group).repo, id, 'Evaluating the merge group.');
      outcome = signal.aborted ? undefined : await evaluateMergeGroup(this.opts, gh, job.group, signal);
    } catch (e) {
      // GitHub unreachable before the evaluation began: still an answer for the queue.
      const message = scrubCredentials(`evaluation failed: ${(e as Error).message}`);
      outcome = signal.aborted
        ? undefined
        : {
            conclusion: 'failure',
            output: renderMergeGroupError(labelOf(job.group), undefined, message, 'infrastructure'),
          };
    }
    await (outcome ? this.finish(job, outcome) : this.stop(job));
  }

  /**
   * Aborted: by a shutdown (the group stays stored for the restart, or another replica), by a
   * lease lost to another replica (which gates it now), or by `destroyed`.
   */
  private async stop(job: Job): Promise<void> {
    const handedOver = job.lease?.lost.aborted === true;
    if ((this.life.closing || handedOver) && job.cancelled === undefined) {
      if (this.jobs.get(job.key) === job) this.jobs.delete(job.key);
      await job.lease?.release();
      return;
    }
    await this.finish(job, undefined);
  }

  /** Drops a group from memory and the store. */
  private async forget(job: Job): Promise<void> {
    if (this.jobs.get(job.key) === job) this.jobs.delete(job.key);
    await this.opts.store.mergeGroups.close(job.key);
    await job.lease?.release();
  }

  /** Completes the group's check run once: with `outcome`, or cancelled with the job's reason. */
  private async finish(job: Job, outcome: MergeGroupOutcome | undefined): Promise<void> {
    if (this.jobs.get(job.key) !== job) return;
    this.jobs.delete(job.key);
    const result: MergeGroupOutcome = outcome ?? {
      conclusion: 'cancelled',
      output: renderMergeGroupCancelled(labelOf(job.group), job.cancelled ?? WITHDRAWN),
    };
    const id = await job.checkRun;
    if (id !== undefined) {
      const gh = await this.opts.github(job.group.installationId);
      await gh.completeCheck(labelOf(job.group).repo, id, result.conclusion, result.output);
    }
    await this.opts.store.mergeGroups.close(job.key);
    await job.lease?.release();
    this.opts.log.info(
      { mergeGroup: job.key, check: CHECK_NAME, conclusion: result.conclusion },
      'merge group checked',
    );
  }

  private track(p: Promise<void>): void {
    void this.life.track(p);
  }
}
