/**
 * The linked-set merge queue's runner (issue 28): it drives the pure queue logic
 * (`core/set-queue`: `nextActions`, `record*`) with `queue.speculation` and `queue.retries` from
 * `tandem.yml`, and performs each action the logic asks for:
 * - `evaluate`: builds the item's speculative state (`queue-speculation.ts`) and evaluates it
 *   through the App's one evaluation corridor (`evaluations/evaluate-set.ts`) with every member
 *   repository pinned (base = speculative base, head = tested commit), then records the result;
 * - `land`: lands the tested commits of the item's passing evaluation, producer first, all or
 *   nothing (`github/land-set.ts`);
 * - `evict`: says on every member which configuration failed and which set is to blame;
 * - `cancel`: stops an evaluation whose assumptions broke.
 * The state is saved after every step (`store.setQueue`), one step at a time per installation, so
 * a restart resumes: evaluations left running are run again (`resume`).
 */
import type { MatrixMode } from '../../core/matrix-mode.ts';
import { pullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import {
  describePosition,
  type EvaluationResult,
  emptyQueue,
  nextActions,
  type QueueAction,
  type QueueState,
  QueueStateSchema,
  recordResult,
} from '../../core/set-queue/queue-state.ts';
import type { GitHub } from '../../github/octokit.ts';
import type { QueueStatusView } from '../../report/set-queue-status.ts';
import { type EvaluateSetDeps, evaluateSet } from '../evaluations/evaluate-set.ts';
import { publicFailureMessage } from '../evaluations/failure-message.ts';
import type { OrgConfigCache } from '../evaluations/org-config-cache.ts';
import { octokitPort } from '../port/octokit-port.ts';
import type { QueueItemRecord, QueueRunRecord } from '../store/store-set-queue.ts';
import { landItem } from './queue-land-item.ts';
import { type QueueRunResult, resultOfReport } from './queue-result.ts';
import { speculativeState } from './queue-speculation.ts';
import { tellQueueStatus } from './queue-status.ts';

export interface QueueRunnerDeps extends EvaluateSetDeps {
  configs: OrgConfigCache;
  auth: (installationId: number) => Promise<GitHub>;
  log: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };
  /** The first wait before an interrupted landing is tried again (doubling; default 5 s). */
  landingRetryMs?: number;
  /** Runs work the App's `idle()` waits for (errors logged). */
  background: (fn: () => Promise<unknown>) => Promise<void>;
}

/**
 * As for GitHub's merge groups (merge-queue/merge-group-evaluation.ts): the gate is the full
 * configuration; `leave-one-out` is the smallest mode holding base and full.
 */
const QUEUE_MATRIX: MatrixMode = 'leave-one-out';

type EvaluateAction = Extract<QueueAction, { kind: 'evaluate' }>;
type RunKey = Pick<QueueRunRecord, 'itemId' | 'ahead' | 'attempt' | 'diagnostic'>;
const runId = (r: RunKey) => `${r.itemId}|${r.ahead.join(' ')}|${r.attempt}|${r.diagnostic ?? ''}`;

/** `text` with each queue item id (`q3`) replaced by its seed PR as a `{{key}}` placeholder. */
async function seedsFor(store: QueueRunnerDeps['store'], text: string): Promise<string> {
  const seeds = new Map<string, string | undefined>();
  for (const [id] of text.matchAll(/\bq\d+\b/g))
    if (!seeds.has(id)) seeds.set(id, (await store.setQueue.item(id))?.seed);
  return text.replace(/\bq\d+\b/g, (id) => {
    const seed = seeds.get(id);
    return seed ? `{{${seed}}}` : id;
  });
}

export class SetQueueRunner {
  private readonly steps = new Map<number, Promise<void>>();
  private readonly running = new Map<string, AbortController>();
  private closing = false;
  /** Stops the backoff waits of interrupted landings (`close`). */
  private readonly wakers = new Set<() => void>();
  /** The last status told for each queued item. */
  private readonly told = new Map<string, string>();

  constructor(private readonly deps: QueueRunnerDeps) {}

  /** The installation's queue state (empty when none was stored or it no longer parses). */
  async state(installationId: number): Promise<QueueState> {
    const parsed = QueueStateSchema.safeParse(await this.deps.store.setQueue.state(installationId));
    return parsed.success ? parsed.data : emptyQueue();
  }

  /**
   * Applies `change` to the stored state, then hands out and performs what the logic asks next;
   * one step at a time per installation (the next waits for the previous to be saved).
   */
  step(installationId: number, change: (s: QueueState) => QueueState = (s) => s): Promise<void> {
    const previous = this.steps.get(installationId) ?? Promise.resolve();
    const next = previous.then(async () => {
      const opts = await this.options(installationId);
      // Read, changed and saved in one store transaction: another replica's step on the same
      // queue waits for it instead of being overwritten.
      const { state, actions } = await this.deps.store.setQueue.update(installationId, (stored) => {
        const parsed = QueueStateSchema.safeParse(stored);
        const next = nextActions(change(parsed.success ? parsed.data : emptyQueue()), opts);
        return { state: next.state, out: next };
      });
      for (const a of actions) this.perform(installationId, a);
      await this.tellPositions(installationId, state);
    });
    const settled = next.catch((e) => this.deps.log.warn({ err: e }, 'merge queue step failed'));
    this.steps.set(installationId, settled);
    void this.deps.background(() => settled);
    return settled;
  }

  /** After a restart: evaluations the previous process left running are run again. */
  async resume(): Promise<number> {
    const runs = await this.deps.store.setQueue.runningRuns();
    for (const r of runs) {
      const item = await this.deps.store.setQueue.item(r.itemId);
      if (!item) continue;
      const action: EvaluateAction = {
        kind: 'evaluate',
        itemId: r.itemId,
        ahead: r.ahead,
        attempt: r.attempt,
        ...(r.diagnostic === 'alone' ? { diagnostic: 'alone' as const } : {}),
      };
      this.perform(item.installationId, action);
    }
    for (const id of await this.deps.store.setQueue.installations()) {
      // A landing the previous process was doing (or retrying) is done again: landing is idempotent.
      for (const s of (await this.state(id)).items)
        if (s.status === 'landing') this.perform(id, { kind: 'land', itemId: s.item.id });
      void this.step(id);
    }
    return runs.length;
  }

  /** Stops running evaluations; they stay `running` in the store for the restart to resume. */
  close(): void {
    this.closing = true;
    for (const ac of this.running.values()) ac.abort();
    for (const stop of [...this.wakers]) stop();
  }

  private async options(installationId: number): Promise<{ speculation: number; retries: number }> {
    const config = this.deps.configs.config(installationId);
    return config?.queue ?? { speculation: 4, retries: 2 };
  }

  private perform(installationId: number, a: QueueAction): void {
    const task = async () => {
      switch (a.kind) {
        case 'evaluate':
          return this.evaluate(installationId, a);
        case 'land':
          return this.land(installationId, a.itemId);
        case 'evict':
          return this.evict(installationId, a);
        case 'cancel':
          for (const [key, ac] of this.running)
            if (key.startsWith(`${a.itemId}|${a.ahead.join(' ')}|`)) ac.abort();
      }
    };
    void this.deps.background(task);
  }

  private async item(id: string): Promise<QueueItemRecord> {
    const item = await this.deps.store.setQueue.item(id);
    if (!item) throw new Error(`merge queue item ${id} is not in the store`);
    return item;
  }

  private async evaluate(installationId: number, a: EvaluateAction): Promise<void> {
    const run: RunKey = {
      itemId: a.itemId,
      ahead: a.ahead,
      attempt: a.attempt,
      diagnostic: a.diagnostic ?? null,
    };
    const ac = new AbortController();
    this.running.set(runId(run), ac);
    let out: QueueRunResult;
    try {
      out = await this.evaluateRun(installationId, run, ac.signal);
    } catch (e) {
      // GitHub unreachable while building the state: never a verdict on the code.
      out = { result: { outcome: 'infra' }, note: publicFailureMessage(e, []) };
    } finally {
      this.running.delete(runId(run));
    }
    if (ac.signal.aborted) {
      // Cancelled by the logic, or the App stopping (then it stays running for the restart).
      if (!this.closing) await this.deps.store.setQueue.finishRun(run, 'cancelled');
      return;
    }
    await this.deps.store.setQueue.finishRun(run, 'done', {
      ...out.result,
      ...(out.note ? { note: out.note } : {}),
    });
    this.deps.log.info(
      { item: a.itemId, ahead: a.ahead, outcome: out.result.outcome },
      'merge queue evaluation',
    );
    await this.step(installationId, (s) => recordResult(s, a.itemId, a.ahead, out.result, a.attempt));
  }

  private async evaluateRun(
    installationId: number,
    run: RunKey,
    signal: AbortSignal,
  ): Promise<QueueRunResult> {
    const { store } = this.deps;
    const item = await this.item(run.itemId);
    const ahead: QueueItemRecord[] = [];
    for (const id of run.ahead) ahead.push(await this.item(id));
    const gh = await this.deps.auth(installationId);
    const state = await speculativeState(gh, store, item, ahead);
    if ('conflict' in state) {
      await store.setQueue.startRun({ ...run, tested: [] });
      const fail: EvaluationResult = { outcome: 'fail', failedConfigurations: [] };
      return {
        result: run.diagnostic ? { ...fail, passesAlone: false } : fail,
        note: `does not merge: ${state.conflict}`,
      };
    }
    await store.setQueue.startRun({ ...run, tested: state.tested });
    const keys = item.members.map((m) => m.pull).sort();
    const outcome = await evaluateSet(
      this.deps,
      octokitPort(gh),
      {
        installationId,
        org: item.seed.slice(0, item.seed.indexOf('/')),
        repo: repoOfPullKey(item.seed),
        evaluationId: 0,
        matrix: QUEUE_MATRIX,
        pinned: [...state.tested, ...state.context].map((t) => ({ repo: t.repo, base: t.base, head: t.sha })),
        seedFor: () => item.seed,
        onSet: async (set) => {
          const now = set.members.map((m) => pullKey(m.ref)).sort();
          if (now.join(' ') === keys.join(' ')) return undefined;
          return {
            title: 'set changed',
            reason: `the linked change is now ${now.join(', ')}, not what was queued`,
          };
        },
        name: (n) =>
          `merge queue ${item.id}${run.ahead.length > 0 ? ` on ${run.ahead.join(', ')}` : ''} (${n})`,
      },
      signal,
    );
    switch (outcome.kind) {
      case 'done':
        return resultOfReport(outcome.report, run.diagnostic !== null);
      case 'skipped':
        return { result: { outcome: 'fail', failedConfigurations: [] }, note: outcome.skip.reason };
      case 'failed':
        return { result: { outcome: 'infra' }, note: outcome.message };
      default:
        return { result: { outcome: 'infra' }, note: `no evaluation (${outcome.kind})` };
    }
  }

  private land(installationId: number, itemId: string): Promise<void> {
    return landItem(
      {
        store: this.deps.store,
        log: this.deps.log,
        auth: this.deps.auth,
        item: (id) => this.item(id),
        step: (id, change) => this.step(id, change),
        wait: (ms) => this.wait(ms),
        landingRetryMs: this.deps.landingRetryMs ?? 5000,
      },
      installationId,
      itemId,
    );
  }

  /** Resolves true after `ms`, false at once when the App is stopping (or stops meanwhile). */
  private wait(ms: number): Promise<boolean> {
    if (this.closing) return Promise.resolve(false);
    return new Promise((resolve) => {
      const stop = () => {
        clearTimeout(timer);
        this.wakers.delete(stop);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.wakers.delete(stop);
        resolve(true);
      }, ms);
      this.wakers.add(stop);
    });
  }

  private async evict(installationId: number, a: Extract<QueueAction, { kind: 'evict' }>): Promise<void> {
    const { store, log } = this.deps;
    const item = await this.item(a.itemId);
    // A refused landing already said what landed and what was undone: that status stays.
    if (item.status === 'evicted') return;
    await store.setQueue.setStatus(a.itemId, 'evicted', a.reason);
    const gh = await this.deps.auth(installationId);
    const blame = a.blame ? (await store.setQueue.item(a.blame.itemId))?.seed : undefined;
    const blameWith = a.blame?.withItemId ? (await store.setQueue.item(a.blame.withItemId))?.seed : undefined;
    // The App's own words when it has them (a conflict, the set that changed), else the logic's.
    const note = await store.setQueue.lastNote(a.itemId);
    await tellQueueStatus(
      gh,
      store,
      item,
      {
        kind: 'evicted',
        reason: note ?? a.reason,
        failedConfigurations: a.failedConfigurations,
        ...(blame ? { blame } : {}),
        ...(blame && blameWith ? { blameWith } : {}),
      },
      log,
    );
  }

  /** Every queued item's position, what it waits for and the blocking item (`describePosition`). */
  private async tellPositions(installationId: number, state: QueueState): Promise<void> {
    const { store, log } = this.deps;
    const gh = await this.deps.auth(installationId);
    for (const s of state.items) {
      const item = await store.setQueue.item(s.item.id);
      if (item?.status !== 'queued') continue;
      const p = describePosition(state, s.item.id);
      const blocker = p.blockedBy ? (await store.setQueue.item(p.blockedBy.itemId))?.seed : undefined;
      const view: QueueStatusView = {
        kind: 'queued',
        position: p.position,
        of: state.items.length,
        // Items by their seed PR, which each page names only when it may (`{{key}}`).
        waitingFor: await seedsFor(store, p.waitingFor),
        ...(blocker && p.blockedBy ? { blockedBy: { set: blocker, why: p.blockedBy.why } } : {}),
      };
      // Said again only when it changed: each step re-reads every position.
      const said = JSON.stringify(view);
      if (this.told.get(item.id) === said) continue;
      this.told.set(item.id, said);
      await tellQueueStatus(gh, store, item, view, log);
    }
  }
}
