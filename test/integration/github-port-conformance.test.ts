/**
 * The in-memory GitHub port (test/support/memory-github.ts) answers as the Octokit port does over
 * the HTTP stand-in (which itself conforms to GitHub's OpenAPI description): the same repositories,
 * PRs and permissions seeded into both, the same questions asked of both, the same answers. Unit
 * tests of the App's decisions on the fake are only worth what this holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GitHubPort } from '../../src/app/port/github-port.ts';
import { octokitPort } from '../../src/app/port/octokit-port.ts';
import { pullKey } from '../../src/core/pull-ref.ts';
import type { PullInfo } from '../../src/core/pull-request.schema.ts';
import { type StandIn, startGitHubStandIn } from '../support/github-standin/index.ts';
import { MemoryGitHub } from '../support/memory-github.ts';
import { standInClient } from '../unit/app-fixtures.ts';

const SHA = (n: number) => String(n).repeat(40).slice(0, 40);
const PULLS = [
  { repo: 'api', number: 1, body: 'Depends-On: acme/secret#2', headRef: 'feature', author: 'alice' },
  { repo: 'secret', number: 2, body: 'Schema change.', headRef: 'feature', author: 'bob' },
  {
    repo: 'api',
    number: 3,
    body: 'Depends-On: acme/secret#2',
    headRef: 'feature',
    author: 'mallory',
    fork: true,
  },
] as const;

let standIn: StandIn;
const ports: Record<'octokit' | 'memory', GitHubPort> = {} as never;

beforeAll(async () => {
  standIn = await startGitHubStandIn();
  const memory = new MemoryGitHub();
  for (const [name, visibility] of [
    ['api', 'public'],
    ['secret', 'private'],
  ] as const) {
    standIn.addRepo({ owner: 'acme', name, private: visibility === 'private' });
    memory.addRepo(`acme/${name}`, { visibility });
  }
  standIn.addRepo({ owner: 'mallory', name: 'api' });
  for (const p of PULLS) {
    const fork = 'fork' in p;
    standIn.addPullRequest({
      owner: 'acme',
      repo: p.repo,
      number: p.number,
      title: `PR ${p.number}`,
      body: p.body,
      headRef: p.headRef,
      headSha: SHA(p.number),
      baseSha: SHA(9),
      user: p.author,
      ...(fork ? { headRepo: { owner: 'mallory', name: 'api' } } : {}),
    });
    memory.addPull({
      repo: `acme/${p.repo}`,
      number: p.number,
      title: `PR ${p.number}`,
      body: p.body,
      headRef: p.headRef,
      headSha: SHA(p.number),
      author: p.author,
      ...(fork ? { headRepo: 'mallory/api' } : {}),
    });
  }
  standIn.setPermission('acme', 'api', 'alice', 'write');
  memory.grantWrite('acme/api', 'alice');
  standIn.setPermission('acme', 'api', 'reader', 'read');
  ports.octokit = octokitPort(standInClient(standIn));
  ports.memory = memory;
});
afterAll(async () => {
  await standIn?.close();
});

/** What the App's rooms read of a PR (not the URLs, which name each host). */
const facts = (p: PullInfo | undefined) =>
  p && {
    key: pullKey(p.ref),
    state: p.state,
    title: p.title,
    body: p.body,
    headSha: p.headSha,
    headRef: p.headRef,
    headRepo: p.headRepo,
    repo: p.repo,
    author: p.author,
    visibility: p.visibility,
  };

describe.each(['octokit', 'memory'] as const)('the GitHub port (%s)', (which) => {
  const gh = () => ports[which];

  it('reads PRs as the App relies on them, and a missing one as undefined', async () => {
    expect(facts(await gh().pull({ owner: 'acme', repo: 'api', number: 1 }))).toEqual({
      key: 'acme/api#1',
      state: 'open',
      title: 'PR 1',
      body: 'Depends-On: acme/secret#2',
      headSha: SHA(1),
      headRef: 'feature',
      headRepo: 'acme/api',
      repo: 'acme/api',
      author: 'alice',
      visibility: 'public',
    });
    expect(facts(await gh().pull({ owner: 'acme', repo: 'api', number: 3 }))?.headRepo).toBe('mallory/api');
    expect(await gh().pull({ owner: 'acme', repo: 'api', number: 99 })).toBeUndefined();
  });

  it('says how private a repository is, and who may write to it', async () => {
    expect((await gh().repo('acme/secret')).visibility).toBe('private');
    expect((await gh().repo('acme/api')).defaultBranch).toBe('main');
    expect(await gh().canWrite('acme/api', 'alice')).toBe(true);
    expect(await gh().canWrite('acme/api', 'reader')).toBe(false);
    expect(await gh().canWrite('acme/api', 'mallory')).toBe(false);
  });

  it("lists only the owner's own branches by name, and finds PRs linking to one by search", async () => {
    const peers = await gh().openPullsWithHead('acme/api', 'feature');
    expect(peers.map((p) => pullKey(p.ref))).toEqual(['acme/api#1']);
    const linking = await gh().searchLinkingPulls('acme', { owner: 'acme', repo: 'secret', number: 2 });
    expect(linking?.map(pullKey).sort()).toEqual(['acme/api#1', 'acme/api#3']);
  });

  it('creates, finds, completes and reopens its Tandem check on a head', async () => {
    const sha = SHA(2);
    const id = await gh().createQueuedCheck('acme/secret', sha, 'acme/secret#2', 'waiting');
    expect(await gh().tandemChecksOn('acme/secret', sha, 'acme/secret#2')).toEqual([
      { id, completed: false },
    ]);
    await gh().completeCheck('acme/secret', id, 'success', { title: 'Tandem: resolved', summary: 'ok' });
    expect(await gh().tandemChecksOn('acme/secret', sha, 'acme/secret#2')).toEqual([{ id, completed: true }]);
    await gh().reopenCheck('acme/secret', id, 'again');
    expect(await gh().tandemChecksOn('acme/secret', sha, 'acme/secret#2')).toEqual([
      { id, completed: false },
    ]);
    expect(await gh().tandemChecksOn('acme/secret', sha, 'acme/other#1')).toEqual([]);
  });
});
