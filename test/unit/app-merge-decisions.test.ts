/**
 * The member-by-member `/tandem merge` (`merge-command/merge-set.ts`, the `queue.sequential` /
 * `executor: actions` path) on the in-memory GitHub port: acme/schema#1 ← acme/api#1, evaluated
 * and resolved with merge_order schema, api. Nothing merges unless every member can; when all
 * can, they merge producers first, each at its evaluated head.
 */
import { describe, expect, it } from 'vitest';
import { mergeLinkedSet } from '../../src/app/merge-command/merge-set.ts';
import { MERGE_MARKER } from '../../src/github/sticky-comment.ts';
import { publishedEvaluation, useTempStore } from './app-fixtures.ts';
import { memoryWorld } from './memory-world.ts';

const temp = useTempStore('tandem-merge-decisions-');
const HEAD = 'a'.repeat(40);
const log = { warn: () => {} };

async function evaluatedPair(opts: { schemaMergeable?: boolean } = {}) {
  const w = await memoryWorld(temp);
  w.gh.grantWrite('acme/schema', 'alice').grantWrite('acme/api', 'alice');
  await w.opened({
    repo: 'acme/schema',
    number: 1,
    headSha: HEAD,
    mergeable: opts.schemaMergeable ?? true,
  });
  await w.opened({ repo: 'acme/api', number: 1, headSha: HEAD, body: 'Depends-On: acme/schema#1' });
  const evaluation = await publishedEvaluation(
    w.store,
    {
      outcome: 'resolved',
      mergeOrder: ['acme/schema', 'acme/api'],
    },
    ['acme/api#1', 'acme/schema#1'],
  );
  const merge = () =>
    mergeLinkedSet(
      w.store,
      w.gh,
      { seed: 'acme/api#1', linked: ['acme/api#1', 'acme/schema#1'], requestedBy: 'alice' },
      log,
    );
  const mergeComment = (pull: string) =>
    w.gh.comments.find((c) => c.pull === pull && c.marker === MERGE_MARKER)?.body ?? '';
  return { ...w, evaluation, merge, mergeComment };
}

describe('/tandem merge, member by member', () => {
  it('refuses the whole set when one member has conflicts: nothing is merged, every member is told why', async () => {
    const w = await evaluatedPair({ schemaMergeable: false });
    expect(await w.merge()).toBe('done');
    expect(w.gh.calls.filter((c) => c.startsWith('mergePull'))).toEqual([]);
    expect((await w.store.merges.latest(w.evaluation))?.state).toBe('refused');
    for (const pull of ['acme/api#1', 'acme/schema#1']) {
      expect(w.mergeComment(pull)).toContain('acme/schema#1');
      expect(w.mergeComment(pull)).toContain('it has conflicts with its base branch');
    }
    expect((await w.gh.pull({ owner: 'acme', repo: 'api', number: 1 }))?.state).toBe('open');
  });

  it('merges every member, producers first, each at its evaluated head, when all can', async () => {
    const w = await evaluatedPair();
    expect(await w.merge()).toBe('done');
    expect(w.gh.calls.filter((c) => c.startsWith('mergePull'))).toEqual([
      'mergePull acme/schema#1 merged',
      'mergePull acme/api#1 merged',
    ]);
    expect((await w.store.merges.latest(w.evaluation))?.state).toBe('merged');
  });
});
