/**
 * One `Tandem` check run per member head SHA, even when the webhook path (immediately queued)
 * and the evaluation (after the debounce) ask for it at the same moment, when a head is
 * evaluated again (its completed check is moved back to queued, never doubled), and across a
 * kill: the intent is stored before GitHub is asked to create the check, the check carries the
 * PR as `external_id`, and a head whose intent outlived its process is looked up on GitHub and
 * the check found there adopted (`reconcile` on start, or the next `ensure`).
 *
 * Across App replicas sharing one database: reading the head's row and creating its check is
 * done under a short lease on the head (`check:<PR>@<sha>` in `store.leases`), so a second
 * replica waits for the first to store the id and then reuses it. A holder that dies lets its
 * lease expire; its intent is then adopted from GitHub like a killed process's. The in-memory
 * `inFlight` map only spares this process the lease round trips.
 */

import { repoOfPullKey } from '../../core/pull-ref.ts';
import type { GitHubPort } from '../port/github-port.ts';
import { underLease } from '../store/lease-section.ts';
import type { Store } from '../store/store.ts';

const WAITING = 'Waiting for the linked change to be evaluated.';

export interface CheckRunRegistryOptions {
  /**
   * This replica's name in the head leases (`ReplicaCoordination.holder`). The default is one
   * fixed name, right for the embedded store's single process: restarted after a kill, it takes
   * its own leases back at once instead of waiting for them to expire.
   */
  holder?: string | undefined;
  /**
   * How long a head's lease outlives its holder if it dies while creating the check (the
   * replicas' `TANDEM_LEASE_MS`; renewed while held).
   */
  leaseMs?: number | undefined;
  /** How often a replica waiting for another's lease on the same head asks again. */
  retryMs?: number;
}

export class CheckRunRegistry {
  private readonly inFlight = new Map<string, Promise<number>>();
  /** Heads `reconcile` is adopting now. */
  private readonly reconciling = new Map<string, Promise<void>>();
  /**
   * Called with the check's id right after GitHub created it, before the id is stored. Tests set
   * it to kill the process at exactly that point (the window a crash orphans a check in).
   */
  afterCreate: ((pullKey: string, checkRunId: number) => void) | undefined;

  private readonly holder: string;
  private readonly leaseMs: number;
  private readonly retryMs: number;

  constructor(
    private readonly store: Store,
    opts: CheckRunRegistryOptions = {},
  ) {
    this.holder = opts.holder ?? 'this-host';
    this.leaseMs = opts.leaseMs ?? 15_000;
    this.retryMs = opts.retryMs ?? 25;
  }

  /**
   * The check run for this PR head: the open one, the completed one moved back to queued, the one
   * a killed process created (adopted), or a new one created `queued`.
   */
  async ensure(
    gh: GitHubPort,
    pullKey: string,
    headSha: string,
    evaluationId: number | null,
  ): Promise<number> {
    const id = `${pullKey}@${headSha}`;
    const adopting = this.reconciling.get(id);
    if (adopting) return adopting.then(() => this.ensure(gh, pullKey, headSha, evaluationId));
    const pending = this.inFlight.get(id);
    if (pending)
      return pending.then((checkRunId) => this.claimed(pullKey, headSha, evaluationId, checkRunId));
    // In flight before the store is read: an `ensure` of the same head meanwhile waits for this
    // one instead of reading the same "no check yet" and creating a second.
    const p = this.underLease(id, () => this.ensureNow(gh, pullKey, headSha, evaluationId)).finally(() =>
      this.inFlight.delete(id),
    );
    this.inFlight.set(id, p);
    return p;
  }

  /**
   * Runs `fn` while holding the head's lease, waiting for another replica that holds it (it is
   * creating the check: once it stored the id, `fn` finds it).
   */
  private underLease<T>(head: string, fn: () => Promise<T>): Promise<T> {
    return underLease(this.store.leases, `check:${head}`, this.holder, fn, {
      ttlMs: this.leaseMs,
      retryMs: this.retryMs,
    });
  }

  private async ensureNow(
    gh: GitHubPort,
    pullKey: string,
    headSha: string,
    evaluationId: number | null,
  ): Promise<number> {
    const existing = await this.store.checkRuns.get(pullKey, headSha);
    if (existing && !existing.completed)
      return this.claimed(pullKey, headSha, evaluationId, existing.checkRunId);
    return existing
      ? this.reopen(gh, pullKey, headSha, existing.checkRunId, evaluationId)
      : this.adoptOrCreate(gh, pullKey, headSha, evaluationId);
  }

  /**
   * Adopts the checks a killed process created but never stored (its intents), so none stays
   * queued forever: each is stored as found on GitHub, and closed with the head when the PR has
   * moved on. Returns how many intents were settled.
   */
  async reconcile(auth: (installationId: number) => Promise<GitHubPort>): Promise<number> {
    let settled = 0;
    for (const { pullKey, headSha } of await this.store.checkRuns.intents()) {
      const pull = await this.store.pulls.get(pullKey);
      if (!pull) {
        await this.store.checkRuns.dropIntent(pullKey, headSha);
        continue;
      }
      const gh = await auth(pull.installationId);
      const key = `${pullKey}@${headSha}`;
      // Being created now (here, or by a live replica holding the head's lease).
      if (this.inFlight.has(key)) continue;
      const lease = `check:${key}`;
      if (!(await this.store.leases.acquire(lease, this.holder, this.leaseMs))) continue;
      // Settled meanwhile by an `ensure` of this head (which adopts on its own).
      if (!(await this.store.checkRuns.hasIntent(pullKey, headSha))) {
        await this.store.leases.release(lease, this.holder);
        continue;
      }
      // An `ensure` of this head meanwhile waits for the adoption, then goes on as usual.
      const adopted = this.adopt(gh, pullKey, headSha, null);
      const done = adopted.then(
        () => {},
        () => {},
      );
      this.reconciling.set(key, done);
      try {
        const found = await adopted;
        if (found !== undefined && pull.headSha !== headSha)
          await this.closeStale(gh, pullKey, pull.headSha, 'Superseded: the pull request has a newer head.');
      } finally {
        this.reconciling.delete(key);
        await this.store.leases.release(lease, this.holder);
      }
      settled += 1;
    }
    return settled;
  }

  /** Resolves once no check run is being created (the store may close after). */
  async settled(): Promise<void> {
    while (this.inFlight.size + this.reconciling.size > 0)
      await Promise.allSettled([...this.inFlight.values(), ...this.reconciling.values()]);
  }

  /** Closes check runs on heads the PR has moved away from, so none stays open forever. */
  async closeStale(
    gh: GitHubPort,
    pullKey: string,
    currentSha: string | undefined,
    reason: string,
  ): Promise<void> {
    for (const c of await this.store.checkRuns.open(pullKey)) {
      if (c.headSha === currentSha) continue;
      await gh.completeCheck(repoOfPullKey(pullKey), c.checkRunId, 'cancelled', {
        title: 'Tandem: superseded',
        summary: reason,
      });
      await this.store.checkRuns.complete(pullKey, c.headSha);
    }
  }

  private async claimed(
    pullKey: string,
    headSha: string,
    evaluationId: number | null,
    checkRunId: number,
  ): Promise<number> {
    if (evaluationId !== null) await this.store.checkRuns.claim(pullKey, headSha, evaluationId);
    return checkRunId;
  }

  private async reopen(
    gh: GitHubPort,
    pullKey: string,
    headSha: string,
    checkRunId: number,
    evaluationId: number | null,
  ): Promise<number> {
    await gh.reopenCheck(repoOfPullKey(pullKey), checkRunId, WAITING);
    await this.store.checkRuns.reopen(pullKey, headSha, evaluationId);
    return checkRunId;
  }

  private async adoptOrCreate(
    gh: GitHubPort,
    pullKey: string,
    headSha: string,
    evaluationId: number | null,
  ): Promise<number> {
    // An intent no process holds now: a killed one may have created the check.
    if (await this.store.checkRuns.hasIntent(pullKey, headSha)) {
      const adopted = await this.adopt(gh, pullKey, headSha, evaluationId);
      if (adopted !== undefined) {
        const row = await this.store.checkRuns.get(pullKey, headSha);
        if (row?.completed) return this.reopen(gh, pullKey, headSha, adopted, evaluationId);
        return adopted;
      }
    }
    await this.store.checkRuns.intend(pullKey, headSha);
    const checkRunId = await gh.createQueuedCheck(repoOfPullKey(pullKey), headSha, pullKey, WAITING);
    this.afterCreate?.(pullKey, checkRunId);
    await this.store.checkRuns.save({ pullKey, headSha, checkRunId, evaluationId });
    return checkRunId;
  }

  /**
   * Looks the head's check up on GitHub (name + `external_id`) and stores the newest found; any
   * older duplicate is closed. Undefined (and the intent dropped) when GitHub has none.
   */
  private async adopt(
    gh: GitHubPort,
    pullKey: string,
    headSha: string,
    evaluationId: number | null,
  ): Promise<number | undefined> {
    const repo = repoOfPullKey(pullKey);
    const [newest, ...older] = await gh.tandemChecksOn(repo, headSha, pullKey);
    if (!newest) {
      await this.store.checkRuns.dropIntent(pullKey, headSha);
      return undefined;
    }
    for (const dup of older.filter((c) => !c.completed))
      await gh.completeCheck(repo, dup.id, 'cancelled', {
        title: 'Tandem: superseded',
        summary: 'A duplicate of this head’s Tandem check.',
      });
    await this.store.checkRuns.save({
      pullKey,
      headSha,
      checkRunId: newest.id,
      evaluationId,
      completed: newest.completed,
    });
    return newest.id;
  }
}
