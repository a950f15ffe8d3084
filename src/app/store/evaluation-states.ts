/**
 * The one owner of an evaluation's state. Every change goes through `move`, which checks it
 * against the transition table, writes it with a compare-and-set (so a write from a stale view
 * of the row is refused instead of overwriting a newer state) and announces it: the service
 * and tests wait on these events instead of polling the database.
 *
 *   queued ─→ running ─→ published | superseded | failed
 *      └──→ superseded       └──→ queued (a restart re-queues what was running)
 */
import { EventEmitter } from 'node:events';
import {
  EVALUATION_STATES,
  type EvaluationState,
  type EvaluationsTable,
  type EvaluationVerdict,
  type NewEvaluation,
  type StoredEvaluation,
} from './store-evaluations.ts';

export { EVALUATION_STATES, type EvaluationState };

const NEXT: Record<EvaluationState, readonly EvaluationState[]> = {
  // Superseded while waiting: a newer request of the same set (or a set it grew into) took over.
  queued: ['running', 'superseded'],
  running: ['published', 'superseded', 'failed', 'queued'],
  published: [],
  superseded: [],
  failed: [],
};

export function canMove(from: EvaluationState, to: EvaluationState): boolean {
  return NEXT[from].includes(to);
}

export class IllegalTransitionError extends Error {
  constructor(
    readonly evaluationId: number,
    readonly from: EvaluationState | undefined,
    readonly to: EvaluationState,
  ) {
    super(`evaluation ${evaluationId}: ${from ?? 'unknown'} → ${to} is not a legal transition`);
    this.name = 'IllegalTransitionError';
  }
}

export interface Transition {
  id: number;
  /** `undefined` for a newly created evaluation. */
  from: EvaluationState | undefined;
  to: EvaluationState;
}

type Events = { transition: [Transition] };

export class EvaluationStates extends EventEmitter<Events> {
  constructor(private readonly table: EvaluationsTable) {
    super();
  }

  async create(e: NewEvaluation): Promise<number> {
    const id = await this.table.create(e);
    this.emit('transition', { id, from: undefined, to: 'queued' });
    return id;
  }

  /** The set's queued evaluation, created or reused (`EvaluationsTable.queue`). */
  async queue(e: NewEvaluation): Promise<{ id: number; created: boolean }> {
    const queued = await this.table.queue(e);
    if (queued.created) this.emit('transition', { id: queued.id, from: undefined, to: 'queued' });
    return queued;
  }

  /** The matrix and `--fresh` the requests folded into `id` asked for (on any replica). */
  asked(id: number): ReturnType<EvaluationsTable['asked']> {
    return this.table.asked(id);
  }

  /** When `id` was last asked for while queued, on any replica (undefined once it left `queued`). */
  lastAskedAt(id: number): Promise<number | undefined> {
    return this.table.lastAskedAt(id);
  }

  get(id: number): Promise<StoredEvaluation | undefined> {
    return this.table.get(id);
  }

  async stateOf(id: number): Promise<EvaluationState | undefined> {
    return (await this.table.get(id))?.state;
  }

  /** True when a later evaluation of the set waits or runs (on this replica or another). */
  newerUnfinished(setKey: string, id: number): Promise<boolean> {
    return this.table.newerUnfinished(setKey, id);
  }

  /** Evaluations a previous process left queued or running. */
  unfinished(): Promise<StoredEvaluation[]> {
    return this.table.unfinished();
  }

  start(id: number): Promise<void> {
    return this.move(id, 'running');
  }

  publish(id: number): Promise<void> {
    return this.move(id, 'published');
  }

  fail(id: number): Promise<void> {
    return this.move(id, 'failed');
  }

  supersede(id: number): Promise<void> {
    return this.move(id, 'superseded');
  }

  /**
   * A restart found it running: it runs again (its check runs are reused). A verdict it had
   * recorded (its comments were still waiting) is dropped: the new run records its own.
   */
  async requeue(id: number): Promise<void> {
    await this.move(id, 'queued');
    await this.table.clearVerdict(id);
  }

  /** The members (PR and head) a running evaluation settled on: the Actions hand-off keys on them. */
  async setMembers(id: number, members: StoredEvaluation['members']): Promise<void> {
    const state = await this.stateOf(id);
    if (state !== 'running') throw new IllegalTransitionError(id, state, 'running');
    await this.table.setMembers(id, members);
  }

  /** What the report concluded: written while running, once the check conclusions are out. */
  async recordVerdict(id: number, verdict: EvaluationVerdict): Promise<void> {
    const state = await this.stateOf(id);
    if (state !== 'running') throw new IllegalTransitionError(id, state, 'published');
    await this.table.setVerdict(id, verdict);
  }

  /** The executor's report and what it was evaluated with, for a later reuse (`lastPublished`). */
  keepResult(id: number, result: { fingerprint: string; report: string }): Promise<void> {
    return this.table.keepResult(id, result);
  }

  /** `id` republished `from`'s result: it carries it on for the next reuse. */
  carryResult(id: number, from: number): Promise<void> {
    return this.table.carryResult(id, from);
  }

  /** The last published evaluation of a set, with its kept result if any. */
  lastPublished(setKey: string): ReturnType<EvaluationsTable['lastPublished']> {
    return this.table.lastPublished(setKey);
  }

  verdict(id: number): Promise<EvaluationVerdict | undefined> {
    return this.table.verdict(id);
  }

  /** The newest evaluation concerning any of these PRs (`/tandem merge` follows it). */
  latestCovering(keys: readonly string[]): Promise<StoredEvaluation | undefined> {
    return this.table.latestCovering(keys);
  }

  /** Resolves with the state once the evaluation has reached one of `states`. */
  async reached(
    id: number,
    states: readonly EvaluationState[] = ['published', 'superseded', 'failed'],
  ): Promise<EvaluationState> {
    // Listening before reading: a transition announced while the read is in flight is not missed.
    let listener: ((t: Transition) => void) | undefined;
    const announced = new Promise<EvaluationState>((resolve) => {
      listener = (t: Transition) => {
        if (t.id === id && states.includes(t.to)) resolve(t.to);
      };
      this.on('transition', listener);
    });
    try {
      const now = await this.stateOf(id);
      return now && states.includes(now) ? now : await announced;
    } finally {
      if (listener) this.off('transition', listener);
    }
  }

  private async move(id: number, to: EvaluationState): Promise<void> {
    const from = await this.stateOf(id);
    if (!from || !canMove(from, to) || !(await this.table.compareAndSet(id, from, to)))
      throw new IllegalTransitionError(id, from, to);
    this.emit('transition', { id, from, to });
  }
}
