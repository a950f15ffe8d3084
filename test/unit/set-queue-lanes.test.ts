/** The linked-set queue (src/core/set-queue): lanes, speculative states, the budget, landing order, dequeue, position. */
import { describe, expect, it } from 'vitest';
import {
  aheadOf,
  conflicts,
  dequeue,
  describePosition,
  emptyQueue,
  QueueStateSchema,
  recordLanded,
  recordLandingRefused,
} from '../../src/core/set-queue/queue-state.ts';
import { brief, item, OPTS, queued, result, step } from './set-queue-fixtures.ts';

describe('set-queue lanes', () => {
  it('items conflict when they share a repository on the same base branch, not on another branch', () => {
    expect(conflicts(item('a', ['api', 'web']), item('b', ['web', 'ops']))).toBe(true);
    expect(conflicts(item('a', ['api']), item('b', ['web']))).toBe(false);
    expect(conflicts(item('a', ['api@main']), item('b', ['api@release']))).toBe(false);
    expect(conflicts(item('a', ['ACME-API'.toLowerCase()]), item('b', ['acme-api']))).toBe(true);
  });

  it('a wiring edge into a repository another item changes is a conflict, both ways', () => {
    expect(conflicts(item('a', ['api'], ['schema']), item('b', ['schema']))).toBe(true);
    expect(conflicts(item('b', ['schema']), item('a', ['api'], ['schema']))).toBe(true);
  });

  it('an item is evaluated on every conflicting item ahead of it, in merge order; independent items on the base tips', () => {
    const box = {
      s: queued(emptyQueue(), item('a', ['api']), item('b', ['web']), item('c', ['api', 'web'])),
    };
    expect(brief(step(box))).toEqual(['evaluate a []', 'evaluate b []', 'evaluate c [a,b]']);
    expect(aheadOf(box.s.items, 'c')).toEqual(['a', 'b']);
  });

  it('an item whose wiring reads a repository changed ahead is evaluated on top of that change', () => {
    const box = { s: queued(emptyQueue(), item('a', ['schema']), item('b', ['api'], ['schema'])) };
    expect(brief(step(box))).toEqual(['evaluate a []', 'evaluate b [a]']);
  });

  it('the speculation budget bounds the evaluations running at once; the front goes first', () => {
    const box = { s: queued(emptyQueue(), ...['a', 'b', 'c', 'd'].map((id) => item(id, ['api']))) };
    expect(brief(step(box, { ...OPTS, speculation: 2 }))).toEqual(['evaluate a []', 'evaluate b [a]']);
    expect(step(box, { ...OPTS, speculation: 2 })).toEqual([]);
    result(box, 'a', [], 'pass');
    expect(brief(step(box, { ...OPTS, speculation: 2 }))).toEqual(['land a', 'evaluate c [a,b]']);
  });

  it('an item lands only once every item its evaluation assumed has landed', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['api'])) };
    step(box);
    result(box, 'b', ['a'], 'pass');
    expect(step(box)).toEqual([]);
    result(box, 'a', [], 'pass');
    expect(brief(step(box))).toEqual(['land a']);
    expect(step(box)).toEqual([]);
    box.s = recordLanded(box.s, 'a');
    expect(brief(step(box))).toEqual(['land b']);
  });

  it('a landed item leaves the queue and the evaluations that assumed it stay valid', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['api'])) };
    step(box);
    result(box, 'a', [], 'pass');
    step(box);
    box.s = recordLanded(box.s, 'a');
    expect(step(box)).toEqual([]);
    result(box, 'b', ['a'], 'pass');
    expect(brief(step(box))).toEqual(['land b']);
  });

  it('dequeue cancels the running evaluation and re-evaluates those behind without it', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['api']), item('c', ['web'])) };
    step(box);
    box.s = dequeue(box.s, 'a');
    expect(brief(step(box))).toEqual(['cancel a []', 'cancel b [a]', 'evaluate b []']);
    expect(dequeue(box.s, 'nope')).toBe(box.s);
  });

  it('a result for an evaluation that was cancelled is ignored', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['api'])) };
    step(box);
    box.s = dequeue(box.s, 'a');
    step(box);
    result(box, 'b', ['a'], 'pass');
    expect(step(box)).toEqual([]);
    result(box, 'b', [], 'pass');
    expect(brief(step(box))).toEqual(['land b']);
  });

  it('landing refused evicts the item with the reason and re-evaluates those that assumed it', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['api'])) };
    step(box);
    result(box, 'a', [], 'pass');
    result(box, 'b', ['a'], 'pass');
    step(box);
    box.s = recordLandingRefused(box.s, 'a', 'acme/api: Update is not a fast forward');
    const actions = step(box);
    expect(brief(actions)).toEqual(['evict a', 'evaluate b []']);
    expect(actions[0]).toMatchObject({ reason: 'landing refused: acme/api: Update is not a fast forward' });
  });

  it('serial: one item at a time, on the base tips, in queue order', () => {
    const serial = { ...OPTS, serial: true };
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['web'])) };
    expect(brief(step(box, serial))).toEqual(['evaluate a []']);
    result(box, 'a', [], 'pass');
    expect(brief(step(box, serial))).toEqual(['land a']);
    box.s = recordLanded(box.s, 'a');
    expect(brief(step(box, serial))).toEqual(['evaluate b []']);
  });

  it('the state survives a JSON round trip through its schema (what the App stores)', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['api'])) };
    step(box);
    result(box, 'a', [], 'fail', ['full']);
    const back = QueueStateSchema.parse(JSON.parse(JSON.stringify(box.s)));
    expect(back).toEqual(JSON.parse(JSON.stringify(box.s)));
  });

  it('describePosition names the place, the lane, what the item waits for and who blocks it', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['api'])) };
    step(box);
    result(box, 'b', ['a'], 'pass');
    expect(describePosition(box.s, 'b')).toEqual({
      position: 2,
      lane: ['a'],
      waitingFor: 'the sets ahead to land: a',
      blockedBy: { itemId: 'a', why: 'being evaluated' },
    });
    expect(describePosition(box.s, 'a').waitingFor).toBe('its evaluation on the base tips (attempt 1)');
    expect(describePosition(box.s, 'zz').position).toBe(0);
  });
});
