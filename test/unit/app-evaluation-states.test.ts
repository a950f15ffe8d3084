/**
 * The evaluation state machine on both backends (a real SQLite file, a real PostgreSQL database): legal paths, refused transitions (from a
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
import { STORE_BACKENDS, useTempStore } from './app-fixtures.ts';

/** A queued evaluation of a set of its own (the database keeps one queued row per set). */
let sets = 0;
const newEvaluation = (s: Store) => {
  const key = `acme/api#${++sets}`;
  return s.evaluations.create({ setKey: key, seed: key, installationId: 1, matrix: null });
};

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

describe.each(STORE_BACKENDS)('EvaluationStates on %s', (backend) => {
  const temp = useTempStore('tandem-states-', backend);
  const openStore = () => temp.open();

  it('announces every transition and persists it', async () => {
    const s = await openStore();
    const seen: Transition[] = [];
    await s.evaluations.on('transition', (t) => seen.push(t));
    const id = await newEvaluation(s);
    await s.evaluations.start(id);
    await s.evaluations.setMembers(id, [{ key: 'acme/api#1', headSha: 'a'.repeat(40) }]);
    await s.evaluations.publish(id);
    expect(seen).toEqual([
      { id, from: undefined, to: 'queued' },
      { id, from: 'queued', to: 'running' },
      { id, from: 'running', to: 'published' },
    ]);
    expect(await s.evaluations.get(id)).toMatchObject({
      state: 'published',
      members: [{ key: 'acme/api#1', headSha: 'a'.repeat(40) }],
    });
  });

  it.each<[string, (s: Store, id: number) => Promise<void>, EvaluationState]>([
    ['publishing a queued evaluation', (s, id) => s.evaluations.publish(id), 'queued'],
    ['failing a queued evaluation', (s, id) => s.evaluations.fail(id), 'queued'],
    [
      'superseding a published one',
      async (s, id) => {
        await s.evaluations.start(id);
        await s.evaluations.publish(id);
        await s.evaluations.supersede(id);
      },
      'published',
    ],
    [
      'restarting a failed one',
      async (s, id) => {
        await s.evaluations.start(id);
        await s.evaluations.fail(id);
        await s.evaluations.requeue(id);
      },
      'failed',
    ],
  ])('refuses %s and leaves the state as it was', async (_what, act, left) => {
    const s = await openStore();
    const id = await newEvaluation(s);
    await expect(act(s, id)).rejects.toThrow(IllegalTransitionError);
    expect(await s.evaluations.stateOf(id)).toBe(left);
  });

  it('refuses members for an evaluation that is not running, and an unknown evaluation', async () => {
    const s = await openStore();
    const id = await newEvaluation(s);
    await expect(s.evaluations.setMembers(id, [])).rejects.toThrow(/queued → running/);
    await expect(s.evaluations.start(999)).rejects.toThrow(/evaluation 999: unknown → running/);
  });

  it('writes with compare-and-set: a write from a stale view of the row is refused', async () => {
    const s = await openStore();
    const id = await newEvaluation(s);
    // Another process (or a forgotten writer) moved the row under us.
    await s.db.run(`UPDATE evaluations SET state = 'superseded' WHERE id = ?`, [id]);
    await expect(s.evaluations.start(id)).rejects.toThrow(IllegalTransitionError);
    expect(await s.evaluations.stateOf(id)).toBe('superseded');
  });

  it('`reached` resolves on the transition, or at once when it is already there', async () => {
    const s = await openStore();
    const id = await newEvaluation(s);
    const other = await newEvaluation(s);
    const done = s.evaluations.reached(id);
    const running = s.evaluations.reached(id, ['running']);
    await s.evaluations.start(other);
    await s.evaluations.start(id);
    await expect(running).resolves.toBe('running');
    await s.evaluations.fail(id);
    await expect(done).resolves.toBe('failed');
    await expect(s.evaluations.reached(id)).resolves.toBe('failed');
  });

  it('lists queued and running evaluations as unfinished, and a restart re-queues the running ones', async () => {
    const s = await openStore();
    const a = await newEvaluation(s);
    const b = await newEvaluation(s);
    const c = await newEvaluation(s);
    await s.evaluations.start(b);
    await s.evaluations.start(c);
    await s.evaluations.publish(c);
    expect((await s.evaluations.unfinished()).map((e) => [e.id, e.state])).toEqual([
      [a, 'queued'],
      [b, 'running'],
    ]);
    await s.evaluations.requeue(b);
    expect(await s.evaluations.stateOf(b)).toBe('queued');
  });

  it('a restart drops the verdict a run recorded before its comments were posted', async () => {
    const s = await openStore();
    const id = await newEvaluation(s);
    await s.evaluations.start(id);
    await s.evaluations.recordVerdict(id, { outcome: 'resolved', mergeOrder: ['acme/schema'] });
    expect(await s.evaluations.verdict(id)).toEqual({ outcome: 'resolved', mergeOrder: ['acme/schema'] });
    await s.evaluations.requeue(id);
    expect(await s.evaluations.verdict(id)).toBeUndefined();
  });
});
