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
 * gates the group.
 */
import { scrubCredentials } from '../../core/credentials.ts';
import { type MergeGroup, mergeGroupKey } from '../../core/merge-group.schema.ts';
import { CHECK_NAME } from '../../github/check-runs.ts';
import { renderMergeGroupCancelled, renderMergeGroupError } from '../../report/merge-group-check.ts';
import { TaskLifecycle } from '../evaluations/task-lifecycle.ts';
import type { GitHubPorts } from '../port/github-port.ts';
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
}

interface Job {
  key: string;
  group: MergeGroup;
  /** The check run on the group's head SHA, once created (undefined if creating it failed). */
  checkRun: Promise<number | undefined>;
  /** Why it ends without a verdict, when it does (destroyed). */
  cancelled?: string;
}

const WITHDRAWN = 'The merge group was withdrawn before Tandem finished evaluating it.';

export class MergeGroupGate {
  private readonly life: TaskLifecycle<Job>;
  /** Groups with a check run not yet completed, by `mergeGroupKey`. */
  private readonly jobs = new Map<string, Job>();

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

  /** `checks_requested`: a queued check on the head SHA now, the evaluation in the queue. */
  async request(group: MergeGroup): Promise<void> {
    const key = mergeGroupKey(group);
    // A second request for a group already being gated (GitHub re-requesting) changes nothing.
    if (this.jobs.has(key)) return;
    // The one request that stores the group gates it, in this process or any replica sharing
    // the database: the row is the claim, so two replicas never both check one group.
    if (!(await this.opts.store.mergeGroups.open(key, group))) return;
    // Stopping: the restart resumes it from the store.
    if (this.life.closing) return;
    this.enqueue({ key, group, checkRun: this.createCheck(key, group) });
  }

  /** Re-queues the groups a previous process left open (their check runs are reused). */
  async resume(): Promise<number> {
    const { open, dropped } = await this.opts.store.mergeGroups.all();
    if (dropped.length > 0) this.opts.log.warn({ dropped }, 'unreadable merge groups dropped');
    for (const { key, group, checkRunId } of open) {
      if (this.jobs.has(key)) continue;
      const checkRun = checkRunId === null ? this.createCheck(key, group) : Promise.resolve(checkRunId);
      this.enqueue({ key, group, checkRun });
    }
    return open.length;
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

  private async run(job: Job, signal: AbortSignal): Promise<void> {
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

  /** Aborted: by a shutdown (the group stays stored for the restart) or by `destroyed`. */
  private stop(job: Job): Promise<void> {
    if (this.life.closing && job.cancelled === undefined) {
      this.jobs.delete(job.key);
      return Promise.resolve();
    }
    return this.finish(job, undefined);
  }

  /** Drops a group from memory and the store. */
  private async forget(job: Job): Promise<void> {
    if (this.jobs.get(job.key) === job) this.jobs.delete(job.key);
    await this.opts.store.mergeGroups.close(job.key);
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
    this.opts.log.info(
      { mergeGroup: job.key, check: CHECK_NAME, conclusion: result.conclusion },
      'merge group checked',
    );
  }

  private track(p: Promise<void>): void {
    void this.life.track(p);
  }
}
