/**
 * The sticky comment's stored state: the pure steps (core/comment-state.ts) and the table that
 * keeps it (store/store-comment-states.ts), whose rows are parsed with zod on the way out.
 */
import { describe, expect, it } from 'vitest';
import type { CommentState } from '../../src/core/comment-state.schema.ts';
import {
  withFinal,
  withMerged,
  withReEvaluating,
  withResult,
  withVerdictFirst,
} from '../../src/core/comment-state.ts';
import { linkedReport, linkedView } from '../helpers/comment-cases.ts';
import { STORE_BACKENDS, useTempStore } from './app-fixtures.ts';

const published: CommentState = withResult({
  kind: 'report',
  view: linkedView(2),
  report: linkedReport(2, 'resolved'),
  reveal: 'names',
});
const closed = { state: 'closed' as const, baseRef: 'main' };

describe('comment state steps', () => {
  it('a new result replaces everything said before', () => {
    const busy = withMerged(withReEvaluating(published, linkedView(2)), 'alice')!;
    expect(withResult(published.result!)).toEqual({ result: published.result });
    expect(busy.merged).toEqual({ by: 'alice' });
    expect(busy.pending).toBeUndefined();
  });

  it('marks nothing on a PR without a comment, except the verdict first', () => {
    expect(withReEvaluating(undefined, linkedView(2))).toBeUndefined();
    expect(withMerged(undefined, 'alice')).toBeUndefined();
    expect(withFinal(undefined, closed)).toBeUndefined();
    expect(
      withVerdictFirst(undefined, linkedView(2), { planned: 3, done: 1, full: 'pass' })?.pending?.kind,
    ).toBe('verdict-first');
  });

  it('reaches a final state once; a /tandem merge state stays; a reopened PR evaluated again drops it', () => {
    const final = withFinal(withReEvaluating(published, linkedView(2)), closed)!;
    expect(final).toEqual({ ...published, final: closed });
    expect(withFinal(final, { state: 'merged', baseRef: 'main' })).toBe(final);
    const merged = withMerged(published, 'alice')!;
    expect(withFinal(merged, closed)).toBe(merged);
    expect(withReEvaluating(final, linkedView(2))).toEqual({
      ...published,
      pending: { kind: 're-evaluating', view: linkedView(2) },
    });
  });
});

describe.each(STORE_BACKENDS)('the comment states table on %s', (backend) => {
  const temp = useTempStore('tandem-comment-state-', backend);

  it('keeps a state per PR and reads it back parsed; a row it cannot parse reads as none', async () => {
    const store = await temp.open();
    const state = withMerged(published, 'alice')!;
    await store.comments.put('acme/api#10', state);
    expect(await store.comments.get('acme/api#10')).toEqual(state);
    expect(await store.comments.get('acme/web#11')).toBeUndefined();
    await store.db.run(
      'UPDATE comment_states SET state = \'{"result":{"kind":"report"}}\' WHERE pull_key = ?',
      ['acme/api#10'],
    );
    expect(await store.comments.get('acme/api#10')).toBeUndefined();
  });
});
