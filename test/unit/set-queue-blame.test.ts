/** Blame beyond the nearest set: decided from the states the item was evaluated on (issue 28 item 2). */
import { describe, expect, it } from 'vitest';
import { blameFor, emptyQueue, recordLanded } from '../../src/core/set-queue/queue-state.ts';
import { brief, item, queued, result, step } from './set-queue-fixtures.ts';

describe('blameFor', () => {
  it('passes alone and on A, fails on A+B: B, not A', () => {
    const tested = [
      { ahead: [], outcome: 'pass' as const },
      { ahead: ['a'], outcome: 'pass' as const },
      { ahead: ['a', 'b'], outcome: 'fail' as const },
    ];
    expect(blameFor(tested, ['a', 'b'])).toEqual({ kind: 'set', itemId: 'b', alsoUntested: [] });
  });

  it('passes on B, fails on A+B: A, although B is nearer', () => {
    const tested = [
      { ahead: ['b'], outcome: 'pass' as const },
      { ahead: ['a', 'b'], outcome: 'fail' as const },
      { ahead: [], outcome: 'pass' as const },
    ];
    expect(blameFor(tested, ['a', 'b'])).toEqual({ kind: 'set', itemId: 'a', alsoUntested: [] });
  });

  it('passes with A and with B, fails with both: the pair', () => {
    const tested = [
      { ahead: ['a', 'c'], outcome: 'pass' as const },
      { ahead: ['a', 'b', 'c'], outcome: 'fail' as const },
      { ahead: ['b', 'c'], outcome: 'pass' as const },
    ];
    expect(blameFor(tested, ['a', 'b', 'c'])).toEqual({ kind: 'pair', itemIds: ['b', 'a'] });
  });

  it('fails alone: its own change; passes on states outside the failing one count for nothing', () => {
    expect(blameFor([{ ahead: [], outcome: 'fail' }], ['a'])).toEqual({ kind: 'own' });
    const tested = [
      { ahead: ['z', 'a'], outcome: 'pass' as const },
      { ahead: [], outcome: 'pass' as const },
    ];
    expect(blameFor(tested, ['a', 'b'])).toEqual({ kind: 'set', itemId: 'b', alsoUntested: ['a'] });
  });
});

describe('set-queue eviction blame from the matrix', () => {
  it('a set that passed with the nearest set ahead but fails once the set that rejoined is ahead blames that one', () => {
    // a (api+docs) is behind z (docs); c (api+web) conflicts with a and b (web), not with z.
    const box = {
      s: queued(
        emptyQueue(),
        item('z', ['docs']),
        item('a', ['api', 'docs']),
        item('b', ['web']),
        item('c', ['api', 'web']),
      ),
    };
    expect(brief(step(box))).toEqual([
      'evaluate z []',
      'evaluate a [z]',
      'evaluate b []',
      'evaluate c [a,b]',
    ]);
    result(box, 'a', ['z'], 'fail');
    expect(brief(step(box))).toEqual(['cancel c [a,b]', 'evaluate a [] alone', 'evaluate c [b]']);
    result(box, 'c', ['b'], 'pass');
    // z fails on its own and leaves: a's failure was z's doing, a rejoins; c is tested on a+b again.
    result(box, 'z', [], 'fail');
    expect(brief(step(box))).toEqual(['evict z', 'cancel a []', 'evaluate a []', 'evaluate c [a,b]']);
    result(box, 'c', ['a', 'b'], 'fail', ['full']);
    expect(brief(step(box))).toEqual(['evaluate c [] alone']);
    result(box, 'c', [], 'pass');
    result(box, 'a', [], 'pass');
    result(box, 'b', [], 'pass');
    expect(brief(step(box))).toEqual(['land a', 'land b']);
    box.s = recordLanded(recordLanded(box.s, 'a'), 'b');
    expect(step(box)).toEqual([
      {
        kind: 'evict',
        itemId: 'c',
        reason: "passes alone, fails together with a's set",
        failedConfigurations: ['full'],
        blame: { itemId: 'a' },
      },
    ]);
  });
});
