/**
 * The pure phases of `tandem mine git`: a repository's history as changes, cues and versions
 * (git-changes.ts), and a linked set of commits as sides and a description (git-set-description.ts).
 */
import { describe, expect, it } from 'vitest';
import { GitChanges, type GitRepoRead } from '../../src/mine/git-changes.ts';
import type { HistoryCommit } from '../../src/mine/git-history.ts';
import { commitUrl, describeGitSet, issueUrl, webUrl } from '../../src/mine/git-set-description.ts';
import type { LinkedComponent } from '../../src/mine/link-graph.ts';

const commit = (
  sha: string,
  at: number,
  message: string,
  extra: Partial<HistoryCommit> = {},
): HistoryCommit => ({
  sha,
  parents: [`${sha}-parent`],
  at,
  message,
  mergedMessages: [],
  ...extra,
});

function read(
  repo: string,
  url: string,
  history: HistoryCommit[],
  more: Partial<GitRepoRead> = {},
): GitRepoRead {
  const [owner, name] = repo.split('/') as [string, string];
  return {
    source: { repo, url },
    parts: { owner, repo: name },
    mirror: `/mirrors/${name}.git`,
    history,
    diffs: new Map(),
    tags: [],
    manifests: { repo, files: [] },
    ...more,
  };
}

const api = read(
  'acme/api',
  'https://x-token:secret@git.example.com/acme/api.git',
  [
    commit('a1', 1000, 'Add the route\n\nCloses #7'),
    commit('a2', 2000, 'Release', { branch: 'feat-x', mergedMessages: ['Refs acme/web#3'] }),
  ],
  {
    diffs: new Map([
      [
        'a2',
        [{ path: 'package.json', removed: ['  "version": "1.0.0",'], added: ['  "version": "1.1.0",'] }],
      ],
    ]),
    tags: [
      { name: 'v1.1.0', sha: 'a2' },
      { name: 'nightly', sha: 'a2' },
      { name: 'v0.9.0', sha: 'not-in-history' },
    ],
  },
);
const web = read('acme/web', '/srv/git/web.git', [commit('w1', 1500, 'Use the route (acme/api#7)')]);

describe('GitChanges', () => {
  const changes = new GitChanges().add(api).add(web);

  it('makes every commit a change with the cues of its message and its merged messages', () => {
    expect(changes.units.map((u) => [u.id, u.branch, u.cues.map((c) => c.target)])).toEqual([
      ['acme/api@a1', undefined, ['acme/api#7']],
      ['acme/api@a2', 'feat-x', ['acme/web#3']],
      ['acme/web@w1', undefined, ['acme/api#7']],
    ]);
    expect(changes.cuesOf.get('acme/web@w1')).toEqual(changes.units[2]!.cues);
  });

  it('records the versions a repository made: version fields its commits set, tags naming a version', () => {
    expect(changes.marks).toEqual([
      {
        repo: 'acme/api',
        unitId: 'acme/api@a2',
        at: 2000,
        version: '1.1.0',
        how: 'version-field',
        name: 'package.json',
      },
      { repo: 'acme/api', unitId: 'acme/api@a2', at: 2000, version: '1.1.0', how: 'tag', name: 'v1.1.0' },
    ]);
  });

  it("keeps each commit's tags, ignoring tags on commits outside the history read", () => {
    expect(changes.tagsOf.get('acme/api@a2')).toEqual(['v1.1.0', 'nightly']);
    expect([...changes.tagsOf.keys()]).toEqual(['acme/api@a2']);
  });
});

describe('describeGitSet', () => {
  const changes = new GitChanges().add(api).add(web);
  const comp: LinkedComponent = {
    units: ['acme/api@a1', 'acme/web@w1'],
    repos: ['acme/api', 'acme/web'],
    sharedBranches: [],
    links: [],
  };

  it('gives one side per repository without the credentials of the URL given', () => {
    const set = describeGitSet(comp, changes, [api.source, web.source]);
    if ('refused' in set) throw new Error(set.refused);
    expect(set.sides).toEqual([
      {
        repo: 'acme/api',
        url: 'https://git.example.com/acme/api.git',
        mirror: '/mirrors/api.git',
        steps: [{ sha: 'a1', parent: 'a1-parent' }],
      },
      {
        repo: 'acme/web',
        url: '/srv/git/web.git',
        mirror: '/mirrors/web.git',
        steps: [{ sha: 'w1', parent: 'w1-parent' }],
      },
    ]);
  });

  it('describes the set from its commits: messages as the statement, web URLs where the host has pages', () => {
    const set = describeGitSet(comp, changes, [api.source, web.source]);
    if ('refused' in set) throw new Error(set.refused);
    expect(set.described.problemStatement).toBe(
      'acme/api: Add the route\n\nCloses #7\n\nacme/web: Use the route (acme/api#7)',
    );
    expect(set.described.createdAt).toBe(new Date(1500).toISOString());
    expect(set.described.issues).toEqual(['acme/api#7']);
    expect(set.described.cues.map((c) => c.from)).toEqual(['acme/api@a1', 'acme/web@w1']);
    expect(set.described.provenance).toEqual([
      'https://git.example.com/acme/api/commit/a1',
      'acme/web@w1',
      'https://git.example.com/acme/api/issues/7',
    ]);
    expect(set.described.needsRewrite).toBe(true);
  });

  it('refuses a set holding a root commit', () => {
    const root = new GitChanges()
      .add(api)
      .add(read('acme/web', '/srv/git/web.git', [commit('w1', 1500, 'x', { parents: [] })]));
    expect(describeGitSet(comp, root, [])).toEqual({
      refused: 'a commit of the set is a root commit: it has no base',
    });
  });
});

describe('web URLs', () => {
  it('names pages only for http(s) hosts of the form host/owner/name', () => {
    expect(webUrl({ repo: 'a/b', url: 'https://h.example/a/b.git/' })).toBe('https://h.example/a/b');
    expect(webUrl({ repo: 'a/b', url: 'ssh://h.example/a/b.git' })).toBeUndefined();
    expect(commitUrl({ repo: 'a/b', url: 'file:///srv/b.git' }, 'abc')).toBe('a/b@abc');
  });
  it('matches the issue key to its source without case', () => {
    expect(issueUrl([{ repo: 'Acme/API', url: 'https://h.example/Acme/API' }], 'acme/api#9')).toBe(
      'https://h.example/Acme/API/issues/9',
    );
    expect(issueUrl([], 'acme/api#9')).toBe('acme/api#9');
  });
});
