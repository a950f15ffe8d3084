/** The linked-set queue (src/core/set-queue): failures, blame, flaky and infrastructure results. */
import { describe, expect, it } from 'vitest';
import {
  describePosition,
  emptyQueue,
  recordLanded,
  recordResult,
  resume,
} from '../../src/core/set-queue/queue-state.ts';
import { brief, item, OPTS, queued, result, step } from './set-queue-fixtures.ts';

describe('set-queue failures', () => {
  it('a failure on the base tips evicts the item with its failing configurations, no diagnostic', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api'])) };
    step(box);
    result(box, 'a', [], 'fail', ['full', 'only acme/api']);
    const actions = step(box);
    expect(actions).toEqual([
      {
        kind: 'evict',
        itemId: 'a',
        reason: 'fails on the base tips',
        failedConfigurations: ['full', 'only acme/api'],
      },
    ]);
    expect(box.s.items).toEqual([]);
  });

  it('the items behind a failed item that assumed it are re-evaluated without it, nearest first', () => {
    const box = {
      s: queued(emptyQueue(), item('a', ['api']), item('b', ['api']), item('c', ['api']), item('d', ['api'])),
    };
    step(box, { ...OPTS, speculation: 3 });
    result(box, 'a', [], 'fail');
    expect(brief(step(box, { ...OPTS, speculation: 3 }))).toEqual([
      'cancel b [a]',
      'cancel c [a,b]',
      'evict a',
      'evaluate b []',
      'evaluate c [b]',
      'evaluate d [b,c]',
    ]);
  });

  it('items in another lane are not disturbed by a failure', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['web'])) };
    step(box);
    result(box, 'a', [], 'fail');
    expect(brief(step(box))).toEqual(['evict a']);
  });

  it('failing with sets ahead: a diagnostic alone run; failing alone evicts without blame', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['api'])) };
    step(box);
    result(box, 'b', ['a'], 'fail', ['full']);
    expect(brief(step(box))).toEqual(['evaluate b [] alone']);
    result(box, 'b', [], 'fail', ['only acme/api']);
    const actions = step(box);
    expect(actions).toEqual([
      {
        kind: 'evict',
        itemId: 'b',
        reason: 'fails alone, on the base tips',
        failedConfigurations: ['only acme/api'],
      },
    ]);
  });

  it('passes alone, fails together: evicted with the blame once the set ahead has landed', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['api'])) };
    step(box);
    result(box, 'b', ['a'], 'fail', ['full']);
    step(box);
    result(box, 'b', [], 'pass');
    expect(step(box)).toEqual([]);
    expect(describePosition(box.s, 'b').blockedBy).toEqual({ itemId: 'a', why: 'being evaluated' });
    result(box, 'a', [], 'pass');
    expect(brief(step(box))).toEqual(['land a']);
    box.s = recordLanded(box.s, 'a');
    expect(step(box)).toEqual([
      {
        kind: 'evict',
        itemId: 'b',
        reason: "passes alone, fails together with a's set",
        failedConfigurations: ['full'],
        blame: { itemId: 'a' },
      },
    ]);
  });

  it('passes alone and the set ahead fails on its own: not evicted, evaluated again without it', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['api'])) };
    step(box);
    result(box, 'b', ['a'], 'fail');
    step(box);
    result(box, 'b', [], 'pass');
    step(box);
    result(box, 'a', [], 'fail');
    expect(brief(step(box))).toEqual(['evict a', 'evaluate b []']);
  });

  it('a failure on a state with a set that later leaves unlanded is forgotten, even if another of its sets lands', () => {
    const box = {
      s: queued(emptyQueue(), item('a', ['api']), item('b', ['web']), item('c', ['api', 'web'])),
    };
    step(box);
    result(box, 'c', ['a', 'b'], 'fail');
    step(box);
    result(box, 'c', [], 'pass');
    result(box, 'a', [], 'fail');
    result(box, 'b', [], 'pass');
    expect(brief(step(box))).toEqual(['evict a', 'land b', 'evaluate c [b]']);
  });

  it('a failing item that rejoins voids the runs behind it that were started without it', () => {
    const box = {
      s: queued(emptyQueue(), item('a', ['api']), item('b', ['api', 'web']), item('c', ['web'])),
    };
    step(box);
    result(box, 'b', ['a'], 'fail');
    expect(brief(step(box))).toEqual(['cancel c [b]', 'evaluate b [] alone', 'evaluate c []']);
    result(box, 'a', [], 'fail');
    expect(brief(step(box))).toEqual([
      'evict a',
      'cancel b []',
      'cancel c []',
      'evaluate b []',
      'evaluate c [b]',
    ]);
  });

  it('describePosition of a failing item names its diagnostic, then the set it waits for', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['api'])) };
    step(box);
    result(box, 'b', ['a'], 'fail');
    step(box);
    expect(describePosition(box.s, 'b').waitingFor).toBe(
      'a diagnostic evaluation on the base tips alone (it failed on the base tips + a)',
    );
    result(box, 'b', [], 'pass');
    expect(describePosition(box.s, 'b')).toMatchObject({
      waitingFor: 'the sets it failed together with (a) to land or leave the queue',
      blockedBy: { itemId: 'a', why: 'being evaluated' },
    });
  });

  it('failing while the sets ahead are landing: no diagnostic, evicted once they landed', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['api'])) };
    step(box);
    result(box, 'a', [], 'pass');
    result(box, 'b', ['a'], 'fail', ['full']);
    expect(brief(step(box))).toEqual(['land a']);
    box.s = recordLanded(box.s, 'a');
    expect(step(box)).toEqual([
      {
        kind: 'evict',
        itemId: 'b',
        reason: 'fails on the base tips with a landed',
        failedConfigurations: ['full'],
      },
    ]);
  });

  it('a failing item is skipped by the items behind while its diagnostic runs', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['api']), item('c', ['api'])) };
    step(box);
    result(box, 'b', ['a'], 'fail');
    expect(brief(step(box))).toEqual(['cancel c [a,b]', 'evaluate b [] alone', 'evaluate c [a]']);
  });

  it('a flaky result is re-run up to retries, and never evicts', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api'])) };
    step(box);
    result(box, 'a', [], 'flaky', ['full']);
    expect(step(box)).toEqual([{ kind: 'evaluate', itemId: 'a', ahead: [], attempt: 1 }]);
    result(box, 'a', [], 'flaky', ['full']);
    // retries 1 spent: no configuration failed in every replicate, so the set's own configurations passed.
    expect(brief(step(box))).toEqual(['land a']);
  });

  it('a flaky result does not disturb the items behind that assumed the item', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['api'])) };
    step(box);
    result(box, 'a', [], 'flaky');
    expect(brief(step(box))).toEqual(['evaluate a []']);
  });

  it('infrastructure results are re-run, never a verdict; past retries the item stalls until resumed', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api']), item('b', ['api'])) };
    step(box);
    result(box, 'a', [], 'infra');
    expect(brief(step(box))).toEqual(['evaluate a []']);
    result(box, 'a', [], 'infra');
    expect(step(box)).toEqual([]);
    expect(box.s.items.map((x) => x.item.id)).toEqual(['a', 'b']);
    expect(describePosition(box.s, 'a').waitingFor).toMatch(
      /infrastructure errors on 2 evaluations in a row \(not a verdict\)/,
    );
    box.s = resume(box.s, 'a');
    expect(brief(step(box))).toEqual(['evaluate a []']);
  });

  it('the attempt, when given, must match the running evaluation', () => {
    const box = { s: queued(emptyQueue(), item('a', ['api'])) };
    step(box);
    box.s = recordResult(box.s, 'a', [], { outcome: 'pass' }, 5);
    expect(step(box)).toEqual([]);
    box.s = recordResult(box.s, 'a', [], { outcome: 'pass' }, 0);
    expect(brief(step(box))).toEqual(['land a']);
  });
});
