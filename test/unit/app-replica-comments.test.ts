/**
 * The sticky comment across App replicas (sticky-comments.ts, store-comment-states.ts), on two
 * stores opened on one database, each replica with its own client of the GitHub stand-in over
 * HTTP: two results posted at once make one comment (forced: the first replica's GitHub write
 * waits until the second has begun its update), and an older evaluation's result arriving after
 * a newer one's does not replace it.
 */
import { describe, expect, it } from 'vitest';
import { commentResult } from '../../src/app/evaluations/sticky-comments.ts';
import { octokitPort } from '../../src/app/port/octokit-port.ts';
import type { CommentResult } from '../../src/core/comment-state.schema.ts';
import { COMMENT_MARKER } from '../../src/github/sticky-comment.ts';
import { linkedView } from '../helpers/comment-cases.ts';
import { firstCall, holdUntil } from '../helpers/replica-race.ts';
import type { StandIn } from '../support/github-standin/index.ts';
import { addApiPull, STORE_BACKENDS, standInClient, useStandIn, useTempStore } from './app-fixtures.ts';

const use = useStandIn('tandem-replica-comments-');

async function onePull(standIn: StandIn) {
  standIn.addRepo({ owner: 'acme', name: 'api' });
  const pr = addApiPull(standIn, 'c'.repeat(40), 'b'.repeat(40));
  const view = linkedView(1);
  view.members[0]!.ref = { owner: 'acme', repo: 'api', number: pr.number };
  const failure = (message: string): CommentResult => ({
    kind: 'no-report',
    view,
    message,
    cause: 'infrastructure',
  });
  const key = `acme/api#${pr.number}`;
  const comments = () =>
    standIn
      .comments('acme', 'api', pr.number)
      .map((c) => c.body ?? '')
      .filter((b) => b.includes(COMMENT_MARKER));
  return { key, failure, comments };
}

describe.each(STORE_BACKENDS)('the sticky comment across replicas on %s', (backend) => {
  const temp = useTempStore('tandem-replica-comments-', backend);

  it('is created once when two replicas post a result at once', async () => {
    const standIn = await use.start();
    const w = await onePull(standIn);
    const [a, b] = [await temp.open(), await temp.open()];
    const [ghA, ghB] = [octokitPort(standInClient(standIn)), octokitPort(standInClient(standIn))];
    // Replica a writes on GitHub only once replica b has begun its own update.
    const bBegan = Promise.race([
      firstCall(b.comments, 'get'),
      ...(b.comments.leases ? [firstCall(b.comments.leases, 'acquire')] : []),
    ]);
    holdUntil(ghA, 'upsertComment', bBegan);
    await Promise.all([
      commentResult(ghA, a.comments, w.key, w.failure('first replica'), 1),
      commentResult(ghB, b.comments, w.key, w.failure('second replica'), 1),
    ]);
    expect(w.comments()).toHaveLength(1);
  }, 20_000);

  it('keeps a newer evaluation’s result when an older one’s arrives after it', async () => {
    const standIn = await use.start();
    const w = await onePull(standIn);
    const [a, b] = [await temp.open(), await temp.open()];
    await commentResult(octokitPort(standInClient(standIn)), b.comments, w.key, w.failure('newer: run 2'), 2);
    await commentResult(octokitPort(standInClient(standIn)), a.comments, w.key, w.failure('older: run 1'), 1);
    const [comment] = w.comments();
    expect(comment).toContain('newer: run 2');
    expect(comment).not.toContain('older: run 1');
  }, 20_000);
});
