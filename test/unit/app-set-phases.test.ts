/**
 * The phases `resolveLinkedSet` is composed of (`linking/set-privacy.ts`, `linking/set-walk.ts`,
 * `publishableSet`), each on its own: on the in-memory GitHub port and a real SQLite store, or,
 * for the last, on a walk's results written out by hand.
 */
import { describe, expect, it } from 'vitest';
import { publishableSet } from '../../src/app/linking/resolve-set.ts';
import { coveredRepoRanks, SetPrivacy } from '../../src/app/linking/set-privacy.ts';
import { SetWalk } from '../../src/app/linking/set-walk.ts';
import type { LinkedSet } from '../../src/core/linked-set.ts';
import type { OrgConfig } from '../../src/core/org-config.schema.ts';
import { pullKey } from '../../src/core/pull-ref.ts';
import type { PullInfo } from '../../src/core/pull-request.schema.ts';
import { RepoMap } from '../../src/core/repo-name.ts';
import { useTempStore } from './app-fixtures.ts';
import { INSTALLATION, memoryWorld, orgConfig } from './memory-world.ts';

const temp = useTempStore('tandem-set-phases-');
const world = (config?: OrgConfig) => memoryWorld(temp, config);

describe('coveredRepoRanks', () => {
  it('asks GitHub once per covered repository how private it is, and nothing when the suite shares private ones', async () => {
    const w = await world();
    w.gh.addRepo('acme/schema', { visibility: 'internal' }).addRepo('acme/web', { visibility: 'private' });
    const ranks = await coveredRepoRanks(w.gh, orgConfig().suites[0]!);
    expect(['ACME/api', 'acme/Schema', 'acme/web'].map((r) => ranks.get(r))).toEqual([0, 1, 2]);
    expect(w.gh.calls).toEqual(['repo acme/api', 'repo acme/schema', 'repo acme/web']);

    w.gh.calls.length = 0;
    const shared = await coveredRepoRanks(w.gh, orgConfig({ extra: '    share_private: true' }).suites[0]!);
    expect(shared.has('acme/api')).toBe(false);
    expect(w.gh.calls).toEqual([]);
  });
});

describe('SetPrivacy', () => {
  const ranks = new RepoMap<number>().set('acme/api', 0).set('acme/secret', 2);
  const privacy = new SetPrivacy(
    ranks,
    (k) => (k === 'acme/api#2' ? 'internal' : undefined),
    (k) => k === 'acme/api#3',
  );

  it('ranks a PR by its own visibility, else its repository, else as private', () => {
    expect(privacy.rankOf('acme/api#2')).toBe(1);
    expect(privacy.rankOf('acme/secret#1')).toBe(2);
    expect(privacy.rankOf('acme/api#1')).toBe(0);
    expect(privacy.rankOf('acme/other#1')).toBe(2);
  });

  it("a page counts a PR of a repository no suite covers (never read) as public: only its linker's words repeat it", () => {
    expect(privacy.pageRankOf('acme/other#1')).toBe(0);
    expect(privacy.pageRankOf('acme/secret#4')).toBe(2);
    expect(privacy.pageRankOf('acme/secret')).toBe(2);
    expect(privacy.pageRankOf('acme/unknown')).toBe(2);
  });
});

describe('SetWalk', () => {
  const scope = async () => {
    const w = await world();
    const config = orgConfig();
    const walk = new SetWalk(
      {
        gh: w.gh,
        store: w.store,
        installationId: INSTALLATION,
        seedKey: 'acme/api#1',
        config,
        suite: config.suites[0]!,
      },
      await coveredRepoRanks(w.gh, config.suites[0]!),
    );
    return { ...w, walk };
  };

  it('searches once per PR: a stored answer stands in, a refused search leaves nothing to remember', async () => {
    const w = await scope();
    w.onGitHub({ repo: 'acme/web', number: 4, body: 'Depends-On: acme/api#1' });
    expect(await w.walk.searchedLinkers('acme/api#1')).toEqual(['acme/web#4']);
    expect(await w.walk.searchedLinkers('acme/api#1')).toEqual(['acme/web#4']);
    expect(w.gh.calls.filter((c) => c.startsWith('search'))).toEqual(['search acme/api#1']);

    w.gh.searchRefused = true;
    expect(await w.walk.searchedLinkers('acme/schema#1')).toEqual([]);
    w.gh.searchRefused = false;
    w.onGitHub({ repo: 'acme/web', number: 5, body: 'Depends-On: acme/schema#1' });
    expect(await w.walk.searchedLinkers('acme/schema#1')).toEqual(['acme/web#5']);
  });

  it("a round reads PRs the set misses and new linkers, but takes a stranger's PR from the index", async () => {
    const w = await scope();
    await w.opened({ repo: 'acme/api', number: 1, body: 'Depends-On: acme/schema#1' });
    await w.opened({ repo: 'acme/web', number: 5, body: 'Depends-On: acme/api#1', author: 'mallory' });
    w.onGitHub({ repo: 'acme/web', number: 6, body: 'Depends-On: acme/api#1' });
    await w.store.linkSearches.record('acme/api#1', ['acme/web#6']);
    const first: LinkedSet = {
      members: ['acme/api#1'],
      joined: ['acme/api#1'],
      left: [],
      refused: [],
      missing: ['acme/schema#1'],
    };
    const reads = await w.walk.nextReads(first);
    expect([...reads].sort()).toEqual(['acme/schema#1', 'acme/web#6']);
    expect([...w.walk.indexOnly]).toEqual(['acme/web#5']);
    // A member's reverse links are looked for once per resolution.
    expect([...(await w.walk.nextReads({ ...first, missing: [] }))]).toEqual([]);
  });

  it('reverse candidates keep to the organization and the covered repositories', async () => {
    const w = await scope();
    await w.store.linkSearches.record('acme/api#1', ['acme/web#1', 'acme/docs#1', 'evil/web#1']);
    expect(await w.walk.reverseCandidates('acme/api#1')).toEqual(['acme/web#1']);
  });
});

describe('publishableSet', () => {
  const info = (key: string, baseRef = 'main') =>
    ({
      ref: { owner: 'acme', repo: key.split('/')[1]!.split('#')[0]!, number: Number(key.split('#')[1]) },
      baseRef,
    }) as PullInfo;
  const ranks = new RepoMap<number>()
    .set('acme/api', 0)
    .set('acme/schema', 0)
    .set('acme/web', 0)
    .set('acme/secret', 2);
  const walkOf = (read: string[], extra: { notFound?: string[]; indexOnly?: string[] } = {}) => {
    const infos = new Map(read.map((k) => [k, info(k, k === 'acme/schema#3' ? 'release' : 'main')]));
    return {
      infos,
      notFound: new Set(extra.notFound ?? []),
      indexOnly: new Set(extra.indexOnly ?? []),
      privacy: new SetPrivacy(
        ranks,
        () => undefined,
        (k) => infos.has(k),
      ),
    };
  };
  const suite = orgConfig({ repos: ['acme/api', 'acme/schema', 'acme/web', 'acme/secret'] }).suites[0]!;

  it('members and needed PRs only as read; a merged PR left keeps its base; nothing more private is named', () => {
    const set: LinkedSet = {
      members: ['acme/api#1', 'acme/web#2', 'acme/web#9'],
      joined: ['acme/api#1', 'acme/web#9'],
      left: [
        { key: 'acme/schema#3', state: 'merged' },
        { key: 'acme/schema#4', state: 'closed' },
        { key: 'acme/web#7', state: 'closed' },
        { key: 'acme/secret#1', state: 'closed' },
      ],
      refused: [
        { from: 'acme/api#1', to: 'acme/secret#2', reason: 'x' },
        { from: 'acme/api#1', to: 'evil/x#1', reason: 'y' },
      ],
      missing: [],
    };
    const out = publishableSet(
      walkOf(['acme/api#1', 'acme/web#2', 'acme/schema#3'], {
        notFound: ['acme/schema#4'],
        indexOnly: ['acme/web#7'],
      }),
      set,
      'acme/api#1',
      suite,
    );
    expect(out.members.map((m) => pullKey(m.ref))).toEqual(['acme/api#1']);
    expect(out.needed.map((m) => pullKey(m.ref))).toEqual(['acme/web#2']);
    expect(out.left).toEqual([{ key: 'acme/schema#3', state: 'merged', baseRef: 'release' }]);
    expect(out.refused).toEqual([
      { from: 'acme/api#1', to: 'evil/x#1', reason: 'y' },
      { from: 'acme/api#1', to: 'acme/schema#4', reason: 'not found or not visible to the App' },
    ]);
    expect(out.context).toEqual(['acme/schema']);
  });
});
