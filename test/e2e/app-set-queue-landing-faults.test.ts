/**
 * The linked-set queue's landing when GitHub misbehaves (issue 28): a landing GitHub stops
 * answering (502) is infrastructure trouble, not a refusal — nothing is reverted, every member
 * hears where each member stands, and the set lands on a later try; an undo never clobbers a
 * commit pushed onto the branch after Tandem landed (the reset is a compare-and-swap, else a
 * revert PR). Set A = acme/schema#1 ← acme/api#1, landed producer first.
 */
import { describe, expect, it } from 'vitest';
import { git, gitOut } from '../../src/engine/git/git.ts';
import { commitOn } from '../helpers/git-fixtures.ts';
import { fileAt, head, merge, mergeComment, passAll, queueWorld, tipOf } from '../helpers/set-queue-world.ts';
import { beforeForcedUpdate, refuseRefUpdate } from '../support/github-standin/ref-updates.ts';
import { publishBranch, settle, useWorld, type World } from './app-harness.ts';

const startWorld = useWorld();
const FAST_RETRY = { env: { TANDEM_QUEUE_LANDING_RETRY_MS: '10' } };

/** Every comment body the App wrote (created or edited), in order. */
const writtenBodies = (w: World) =>
  w.standIn.requests
    .filter((r) => r.path.includes('/comments') && (r.method === 'POST' || r.method === 'PATCH'))
    .map((r) => String((r.body as { body?: unknown } | undefined)?.body ?? ''));

describe('App: the merge queue landing through GitHub trouble', () => {
  it('a landing GitHub stops answering midway is retried, not refused: nothing is reverted and the set lands', async () => {
    const { w, executor } = await queueWorld(startWorld, passAll, undefined, { opts: FAST_RETRY });
    // acme/schema lands, then GitHub answers acme/api's branch update with 502, twice.
    w.standIn.failNext({
      status: 502,
      count: 2,
      method: 'PATCH',
      path: /\/repos\/acme\/api\/git\/refs\/heads(\/|%2F)main$/,
    });
    await merge(w, 'api', 1);
    await settle(w);

    const [a] = executor.queueSpecs();
    expect(await tipOf(w, 'schema')).toBe(head(a!, 'acme/schema'));
    expect(await tipOf(w, 'api')).toBe(head(a!, 'acme/api'));
    for (const [repo, n] of [
      ['schema', 1],
      ['api', 1],
    ] as const) {
      expect(w.standIn.pullRequest('acme', repo, n).merged).toBe(true);
      expect(mergeComment(w, repo, n)).toContain('Landed from the merge queue');
    }
    // Meanwhile every member heard it as trouble, with where each member stood.
    const interrupted = writtenBodies(w).filter((b) => b.includes('Landing interrupted'));
    expect(interrupted.length).toBeGreaterThanOrEqual(2);
    expect(interrupted[0]).toMatch(/acme\/schema#1: landed as `[0-9a-f]{7}`/);
    expect(interrupted[0]).toMatch(/acme\/api#1: not landed yet/);
    expect(interrupted[0]).toContain('nothing was reverted');
    // Nothing was undone: no forced update, no revert commit or branch.
    const forced = w.standIn.requests.filter(
      (r) => r.method === 'PATCH' && (r.body as { force?: boolean } | undefined)?.force === true,
    );
    expect(forced).toHaveLength(0);
    expect(w.standIn.requests.some((r) => r.path.includes('tandem/revert'))).toBe(false);
  });

  it('an undo never clobbers a commit pushed after the landing: the reset is refused and a revert PR offered', async () => {
    const { w, executor } = await queueWorld(startWorld, passAll);
    // Producer first: acme/schema lands, then GitHub refuses acme/api's update, so acme/schema is
    // undone — and someone pushes to acme/schema's main just as its reset arrives.
    refuseRefUpdate(w.standIn.state, {
      nth: 1,
      repo: 'acme/api',
      branch: 'main',
      message: 'Update is not a fast forward',
    });
    let pushed = '';
    beforeForcedUpdate(w.standIn.state, { repo: 'acme/schema', branch: 'main' }, async () => {
      const fixture = w.repos.schema!;
      await git(['fetch', '--quiet', 'origin', 'main'], { cwd: fixture.work });
      const landed = (await gitOut(['rev-parse', 'FETCH_HEAD'], { cwd: fixture.work })).trim();
      pushed = await commitOn(fixture, 'main', { 'hotfix.js': 'x\n' }, 'hotfix', { from: landed });
      publishBranch(w, 'schema', 'main', pushed);
    });
    await merge(w, 'api', 1);
    await settle(w);

    const [a] = executor.queueSpecs();
    expect(pushed).not.toBe('');
    // Their commit is still the tip: nothing was reset over it.
    expect(await tipOf(w, 'schema')).toBe(pushed);
    expect((await fileAt(w, 'acme/schema', pushed, 'hotfix.js'))?.trim()).toBe('x');
    // The landing is offered back as a revert PR, built on the landed commit.
    const revert = w.standIn.state.pulls.find(
      (p) => p.repo === 'schema' && p.headRef.startsWith('tandem/revert/'),
    );
    expect(revert).toBeDefined();
    const revertParent = (
      await gitOut(['rev-parse', `${revert!.headSha}^`], { cwd: w.repos.schema!.bare })
    ).trim();
    expect(revertParent).toBe(head(a!, 'acme/schema'));
    expect(mergeComment(w, 'schema', 1)).toMatch(/Landing refused[\s\S]*revert PR acme\/schema#\d+/);
  });
});
