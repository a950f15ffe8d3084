/**
 * The evaluation state machine on a real SQLite file: legal paths, refused transitions (from a
 * final state, or from a stale view of the row), the events it announces and `reached`.
 */
import { describe, expect, it } from 'vitest';
import {
  canMove,
  EVALUATION_STATES,
  type EvaluationState,
  IllegalTransitionError,
  type Transition,
} from '../../src/app/store/evaluation-states.ts';
import type { Store } from '../../src/app/store/store.ts';
import { useTempStore } from './app-fixtures.ts';

const temp = useTempStore('tandem-states-');

const openStore = () => temp.open();

const newEvaluation = (s: Store) =>
  s.evaluations.create({ setKey: 'acme/api#1', seed: 'acme/api#1', installationId: 1, matrix: null });

describe('transition table', () => {
  it('allows exactly the documented moves', () => {
    const allowed = EVALUATION_STATES.flatMap((from) =>
      EVALUATION_STATES.filter((to) => canMove(from, to)).map((to) => `${from}→${to}`),
    );
    expect(allowed.sort()).toEqual(
      [
        'queued→running',
        'queued→superseded',
        'running→published',
        'running→superseded',
        'running→failed',
        'running→queued',
      ].sort(),
    );
    // Final: no state may follow.
    expect(EVALUATION_STATES.filter((s) => EVALUATION_STATES.every((t) => !canMove(s, t)))).toEqual([
      'published',
      'superseded',
      'failed',
    ]);
  });
});

describe('EvaluationStates', () => {
  it('announces every transition and persists it', async () => {
    const s = await openStore();
    const seen: Transition[] = [];
    s.evaluations.on('transition', (t) => seen.push(t));
    const id = newEvaluation(s);
    s.evaluations.start(id);
    s.evaluations.setMembers(id, [{ key: 'acme/api#1', headSha: 'a'.repeat(40) }]);
    s.evaluations.publish(id);
    expect(seen).toEqual([
      { id, from: undefined, to: 'queued' },
      { id, from: 'queued', to: 'running' },
      { id, from: 'running', to: 'published' },
    ]);
    expect(s.evaluations.get(id)).toMatchObject({
      state: 'published',
      members: [{ key: 'acme/api#1', headSha: 'a'.repeat(40) }],
    });
  });

  it.each<[string, (s: Store, id: number) => void, EvaluationState]>([
    ['publishing a queued evaluation', (s, id) => s.evaluations.publish(id), 'queued'],
    ['failing a queued evaluation', (s, id) => s.evaluations.fail(id), 'queued'],
    [
      'superseding a published one',
      (s, id) => {
        s.evaluations.start(id);
        s.evaluations.publish(id);
        s.evaluations.supersede(id);
      },
      'published',
    ],
    [
      'restarting a failed one',
      (s, id) => {
        s.evaluations.start(id);
        s.evaluations.fail(id);
        s.evaluations.requeue(id);
      },
      'failed',
    ],
  ])('refuses %s and leaves the state as it was', async (_what, act, left) => {
    const s = await openStore();
    const id = newEvaluation(s);
    expect(() => act(s, id)).toThrow(IllegalTransitionError);
    expect(s.evaluations.stateOf(id)).toBe(left);
  });

  it('refuses members for an evaluation that is not running, and an unknown evaluation', async () => {
    const s = await openStore();
    const id = newEvaluation(s);
    expect(() => s.evaluations.setMembers(id, [])).toThrow(/queued → running/);
    expect(() => s.evaluations.start(999)).toThrow(/evaluation 999: unknown → running/);
  });

  it('writes with compare-and-set: a write from a stale view of the row is refused', async () => {
    const s = await openStore();
    const id = newEvaluation(s);
    // Another process (or a forgotten writer) moved the row under us.
    s.db.prepare(`UPDATE evaluations SET state = 'superseded' WHERE id = ?`).run(id);
    expect(() => s.evaluations.start(id)).toThrow(IllegalTransitionError);
    expect(s.evaluations.stateOf(id)).toBe('superseded');
  });

  it('`reached` resolves on the transition, or at once when it is already there', async () => {
    const s = await openStore();
    const id = newEvaluation(s);
    const other = newEvaluation(s);
    const done = s.evaluations.reached(id);
    const running = s.evaluations.reached(id, ['running']);
    s.evaluations.start(other);
    s.evaluations.start(id);
    await expect(running).resolves.toBe('running');
    s.evaluations.fail(id);
    await expect(done).resolves.toBe('failed');
    await expect(s.evaluations.reached(id)).resolves.toBe('failed');
  });

  it('lists queued and running evaluations as unfinished, and a restart re-queues the running ones', async () => {
    const s = await openStore();
    const [a, b, c] = [newEvaluation(s), newEvaluation(s), newEvaluation(s)];
    s.evaluations.start(b);
    s.evaluations.start(c);
    s.evaluations.publish(c);
    expect(s.evaluations.unfinished().map((e) => [e.id, e.state])).toEqual([
      [a, 'queued'],
      [b, 'running'],
    ]);
    s.evaluations.requeue(b);
    expect(s.evaluations.stateOf(b)).toBe('queued');
  });

  it('a restart drops the verdict a run recorded before its comments were posted', async () => {
    const s = await openStore();
    const id = newEvaluation(s);
    s.evaluations.start(id);
    s.evaluations.recordVerdict(id, { outcome: 'resolved', mergeOrder: ['acme/schema'] });
    expect(s.evaluations.verdict(id)).toEqual({ outcome: 'resolved', mergeOrder: ['acme/schema'] });
    s.evaluations.requeue(id);
    expect(s.evaluations.verdict(id)).toBeUndefined();
  });
});
