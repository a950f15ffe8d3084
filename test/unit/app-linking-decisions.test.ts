/**
 * The App's linking decisions on the in-memory GitHub port (test/support/memory-github.ts): who
 * joins a linked set, who is only needed, whose link is not followed, what is never read or
 * named. Each was tested only through HTTP (test/e2e, test/security) before; here a resolution
 * takes milliseconds, and `calls` says what the App asked GitHub. Real SQLite store.
 */
import { describe, expect, it } from 'vitest';
import { recordPull } from '../../src/app/linking/record-pull.ts';
import { UNCONFIRMED_REASON } from '../../src/core/linked-set.ts';
import type { OrgConfig } from '../../src/core/org-config.schema.ts';
import { pullKey } from '../../src/core/pull-ref.ts';
import type { PullInfo } from '../../src/core/pull-request.schema.ts';
import { useTempStore } from './app-fixtures.ts';
import { INSTALLATION, memoryWorld, orgConfig } from './memory-world.ts';

const temp = useTempStore('tandem-linking-');
const world = (config?: OrgConfig) => memoryWorld(temp, config);

const keys = (ps: PullInfo[]) => ps.map((p) => pullKey(p.ref));

describe('linked set decisions on the in-memory GitHub', () => {
  it('a link counts backwards only when a writer of the linked repository wrote it', async () => {
    const w = await world();
    await w.opened({ repo: 'acme/schema', number: 1 });
    await w.opened({ repo: 'acme/api', number: 1, body: 'Depends-On: acme/schema#1', author: 'dev' });
    // dev may not write to acme/schema: the schema PR is needed by api#1, but speaks only for itself.
    const fromApi = await w.resolve('acme/api#1');
    expect(keys(fromApi.members)).toEqual(['acme/api#1']);
    expect(keys(fromApi.needed)).toEqual(['acme/schema#1']);
    const fromSchema = await w.resolve('acme/schema#1');
    expect(keys(fromSchema.members)).toEqual(['acme/schema#1']);

    // The answer recorded when api#1's webhook came stands until its next webhook asks again.
    w.gh.grantWrite('acme/schema', 'dev');
    expect(keys((await w.resolve('acme/schema#1')).members)).toEqual(['acme/schema#1']);
    await w.opened({ repo: 'acme/api', number: 1, body: 'Depends-On: acme/schema#1', author: 'dev' });
    const confirmed = await w.resolve('acme/schema#1');
    expect(keys(confirmed.members).sort()).toEqual(['acme/api#1', 'acme/schema#1']);
  });

  it("an outsider's Depends-On never puts their PR in the set, and is named as not followed from every seed", async () => {
    const w = await world();
    await w.opened({ repo: 'acme/schema', number: 1, body: 'Depends-On: acme/api#1' });
    await w.opened({ repo: 'acme/api', number: 1, body: 'Depends-On: acme/schema#1' });
    await w.opened({ repo: 'acme/web', number: 5, body: 'Depends-On: acme/api#1', author: 'mallory' });
    // The same set whichever member the walk starts from, and the same refusal on its pages.
    for (const seed of ['acme/api#1', 'acme/schema#1']) {
      const set = await w.resolve(seed);
      expect(keys(set.members).sort()).toEqual(['acme/api#1', 'acme/schema#1']);
      expect(keys(set.needed)).toEqual([]);
      expect(set.refused, seed).toEqual([
        { from: 'acme/web#5', to: 'acme/api#1', reason: UNCONFIRMED_REASON, foreign: true },
      ]);
    }
  });

  it("a stranger's PR the index knows is judged from the index: the resolution never reads it", async () => {
    const w = await world();
    await w.opened({ repo: 'acme/api', number: 1 });
    for (let n = 1; n <= 20; n++)
      await w.opened({ repo: 'acme/web', number: n, body: 'Depends-On: acme/api#1', author: 'mallory' });
    w.gh.calls.length = 0;
    const set = await w.resolve('acme/api#1');
    expect(keys(set.members)).toEqual(['acme/api#1']);
    expect(w.gh.calls.filter((c) => c.startsWith('pull acme/web'))).toEqual([]);
    expect(w.gh.calls.filter((c) => c.startsWith('canWrite'))).toEqual([]);
  });

  it('a writer confirming the link with /tandem link takes the linking PR in', async () => {
    const w = await world();
    await w.opened({ repo: 'acme/api', number: 1 });
    await w.opened({ repo: 'acme/web', number: 5, body: 'Depends-On: acme/api#1', author: 'mallory' });
    // What `/tandem link acme/api#1` on web#5 by alice records (webhooks/comment-commands.ts).
    await w.store.links.addManual('acme/web#5', 'acme/api#1', 'acme/api#1 acme/web#5', 'alice');
    w.gh.grantWrite('acme/api', 'alice');
    const set = await w.resolve('acme/api#1');
    expect(keys(set.members).sort()).toEqual(['acme/api#1', 'acme/web#5']);
  });

  it('links to another organization are refused without reading them; a missing PR is named as such', async () => {
    const w = await world();
    await w.opened({ repo: 'acme/api', number: 1, body: 'Depends-On: evil/x#1\nDepends-On: acme/schema#9' });
    const set = await w.resolve('acme/api#1');
    expect(keys(set.members)).toEqual(['acme/api#1']);
    expect(set.refused).toContainEqual(
      expect.objectContaining({ to: 'evil/x#1', reason: 'evil/x is outside the acme organization' }),
    );
    expect(set.refused).toContainEqual({
      from: 'acme/api#1',
      to: 'acme/schema#9',
      reason: 'not found or not visible to the App',
    });
    expect(w.gh.calls).not.toContain('pull evil/x#1');
  });

  it('search finds a linking PR the index never saw, once: the next resolution takes the stored answer', async () => {
    const w = await world();
    w.gh.grantWrite('acme/api', 'dev');
    w.onGitHub({ repo: 'acme/web', number: 4, body: 'Depends-On: acme/api#1', author: 'dev' });
    // Recorded without `opened`: the App did not see api#1 from its creation, so it searches.
    await recordPull(w.store, w.gh.addPull({ repo: 'acme/api', number: 1 }), INSTALLATION);
    const first = await w.resolve('acme/api#1');
    expect(keys(first.members).sort()).toEqual(['acme/api#1', 'acme/web#4']);
    const second = await w.resolve('acme/api#1');
    expect(keys(second.members).sort()).toEqual(['acme/api#1', 'acme/web#4']);
    expect(w.gh.calls.filter((c) => c === 'search acme/api#1')).toHaveLength(1);
  });

  it('never names a PR of a more private repository on a public seed; a suite that shares private ones joins them', async () => {
    const repos = ['acme/api', 'acme/secret'];
    const hidden = await world(orgConfig({ repos }));
    hidden.gh.addRepo('acme/secret', { visibility: 'private' });
    await hidden.opened({ repo: 'acme/secret', number: 1, body: 'Depends-On: acme/api#1' });
    await hidden.opened({ repo: 'acme/api', number: 1, body: 'Depends-On: acme/secret#1' });
    const set = await hidden.resolve('acme/api#1');
    expect(keys(set.members)).toEqual(['acme/api#1']);
    const named = JSON.stringify([set.needed, set.left, set.refused, set.context]);
    expect(named).not.toContain('secret');
    expect(set.rankOf('acme/secret')).toBe(2);

    const shared = await world(orgConfig({ repos, extra: '    share_private: true' }));
    shared.gh.addRepo('acme/secret', { visibility: 'private' });
    await shared.opened({ repo: 'acme/secret', number: 1, body: 'Depends-On: acme/api#1' });
    await shared.opened({ repo: 'acme/api', number: 1, body: 'Depends-On: acme/secret#1' });
    const together = await shared.resolve('acme/api#1');
    expect(keys(together.members).sort()).toEqual(['acme/api#1', 'acme/secret#1']);
    // Sharing asks GitHub nothing about how private the covered repositories are.
    expect(shared.gh.calls.filter((c) => c.startsWith('repo '))).toEqual([]);
  });
});

describe('group_by_branch decisions on the in-memory GitHub', () => {
  const grouping = () => orgConfig({ extra: 'group_by_branch: true' });

  it("the org's own same-named branches group; a stranger's fork branch of that name never does", async () => {
    const w = await world(grouping());
    await w.opened({ repo: 'acme/api', number: 1, headRef: 'feature' });
    await w.opened({ repo: 'acme/schema', number: 2, headRef: 'feature' });
    await w.opened({
      repo: 'acme/web',
      number: 3,
      headRef: 'feature',
      headRepo: 'mallory/web',
      author: 'mallory',
    });
    const set = await w.resolve('acme/api#1');
    expect(keys(set.members).sort()).toEqual(['acme/api#1', 'acme/schema#2']);
  });

  it('a fork PR whose author writes to the base repository groups by its branch', async () => {
    const w = await world(grouping());
    w.gh.grantWrite('acme/web', 'dora');
    await w.opened({ repo: 'acme/api', number: 1, headRef: 'feature' });
    await w.opened({ repo: 'acme/web', number: 3, headRef: 'feature', headRepo: 'dora/web', author: 'dora' });
    const set = await w.resolve('acme/api#1');
    expect(keys(set.members).sort()).toEqual(['acme/api#1', 'acme/web#3']);
  });
});
