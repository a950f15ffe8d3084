/**
 * The set the link index knows around a PR (the service's debounce name and what a running
 * evaluation covers), on a real SQLite store: links both ways, unknown PRs counted, closed
 * ones left, unlinked pairs and other organizations cut, same-branch grouping when configured,
 * and the same set from whichever member it starts.
 */
import { describe, expect, it } from 'vitest';
import { indexedSet } from '../../src/app/linking/indexed-set.ts';
import type { Store } from '../../src/app/store/store.ts';
import { setKey } from '../../src/core/linked-set.ts';
import { validateOrgConfig } from '../../src/core/org-config.schema.ts';
import type { PullRef } from '../../src/core/pull-ref.ts';
import { useTempStore } from './app-fixtures.ts';

const temp = useTempStore('tandem-indexed-set-');

const openStore = () => temp.open();

const ref = (repo: string, number: number, owner = 'acme'): PullRef => ({ owner, repo, number });

async function pull(
  s: Store,
  repo: string,
  number: number,
  links: PullRef[] = [],
  opts: { state?: 'open' | 'closed' | 'merged'; headRef?: string; author?: string; headRepo?: string } = {},
) {
  // The org's developers write everywhere: their links count both ways.
  for (const r of ['api', 'schema', 'web']) await s.links.recordWriter(`acme/${r}`, 'octocat', true);
  await s.pulls.upsert({
    ...ref(repo, number),
    installationId: 1,
    state: opts.state ?? 'open',
    headSha: 'a'.repeat(40),
    headRef: opts.headRef ?? `branch-${repo}-${number}`,
    ...(opts.headRepo ? { headRepo: opts.headRepo } : {}),
    baseRef: 'main',
    links,
    author: opts.author ?? 'octocat',
    visibility: 'public',
  });
}

function config(extra: Record<string, unknown> = {}) {
  const r = validateOrgConfig({
    evaluator: 'acme/suites',
    suites: [{ name: 's', repos: ['acme/api', 'acme/schema', 'acme/web'], path: 's.yml' }],
    ...extra,
  });
  if (!r.ok) throw new Error(r.message);
  return r.config;
}

describe('indexedSet', () => {
  it('follows links both ways and names the set alike from every member', async () => {
    const s = await openStore();
    await pull(s, 'schema', 1);
    await pull(s, 'api', 1, [ref('schema', 1)]);
    await pull(s, 'web', 1, [ref('api', 1)]);
    const sets = await Promise.all(
      ['acme/schema#1', 'acme/api#1', 'acme/web#1'].map((k) => indexedSet(s, k, config())),
    );
    for (const set of sets) expect([...set].sort()).toEqual(['acme/api#1', 'acme/schema#1', 'acme/web#1']);
    expect(new Set(sets.map(setKey))).toEqual(new Set(['acme/api#1']));
  });

  it("takes a PR into another's set only when a writer of that repository wrote the link", async () => {
    const s = await openStore();
    await pull(s, 'api', 1);
    await pull(s, 'web', 1, [ref('api', 1)], { author: 'mallory' });
    await s.links.recordWriter('acme/api', 'mallory', false);
    // Mallory's PR needs api#1 (and is named by it), but api#1's set is api#1 alone.
    expect(await indexedSet(s, 'acme/api#1', config())).toEqual(['acme/api#1']);
    expect(await indexedSet(s, 'acme/web#1', config())).toEqual(['acme/web#1']);
    // A writer of acme/api confirms with /tandem link: now it counts both ways.
    await s.links.addManual('acme/web#1', 'acme/api#1', 'acme/api#1 acme/web#1', 'alice');
    await s.links.recordWriter('acme/api', 'alice', true);
    expect((await indexedSet(s, 'acme/api#1', config())).sort()).toEqual(['acme/api#1', 'acme/web#1']);
  });

  it('counts a linked PR it has never seen, and leaves closed and merged ones out', async () => {
    const s = await openStore();
    await pull(s, 'api', 1, [ref('schema', 7), ref('web', 1)]);
    await pull(s, 'web', 1, [], { state: 'merged' });
    expect((await indexedSet(s, 'acme/api#1', config())).sort()).toEqual(['acme/api#1', 'acme/schema#7']);
    // A seed the index has never seen is a set of its own.
    expect(await indexedSet(s, 'acme/api#9', config())).toEqual(['acme/api#9']);
  });

  it('cuts unlinked pairs, other organizations and repositories no suite covers', async () => {
    const s = await openStore();
    await pull(s, 'api', 1, [ref('schema', 1), ref('lib', 1, 'other'), ref('docs', 1)]);
    await pull(s, 'schema', 1);
    await s.links.remove('acme/api#1', 'acme/schema#1', 'acme/api#1 acme/schema#1');
    expect(await indexedSet(s, 'acme/api#1', config())).toEqual(['acme/api#1']);
    // Before the config is known nothing is cut for coverage (the evaluation refuses later).
    expect((await indexedSet(s, 'acme/api#1', undefined)).sort()).toEqual(['acme/api#1', 'acme/docs#1']);
  });

  it('joins open PRs with the same head branch only when group_by_branch is on', async () => {
    const s = await openStore();
    await pull(s, 'api', 1, [], { headRef: 'feature/total' });
    await pull(s, 'schema', 2, [], { headRef: 'feature/total' });
    await pull(s, 'web', 3, [], { headRef: 'feature/total', state: 'closed' });
    expect(await indexedSet(s, 'acme/api#1', config())).toEqual(['acme/api#1']);
    expect((await indexedSet(s, 'acme/api#1', config({ group_by_branch: true }))).sort()).toEqual([
      'acme/api#1',
      'acme/schema#2',
    ]);
  });

  it('groups by branch only PRs whose branch is in the base repository or whose author writes there', async () => {
    const s = await openStore();
    const on = config({ group_by_branch: true });
    await pull(s, 'api', 1, [], { headRef: 'feature', author: 'dev', headRepo: 'acme/api' });
    await pull(s, 'schema', 2, [], { headRef: 'feature', author: 'dev', headRepo: 'acme/schema' });
    // A fork's PR on a branch of the same name, by someone who writes nowhere.
    await pull(s, 'web', 3, [], { headRef: 'feature', author: 'mallory', headRepo: 'mallory/web' });
    expect((await indexedSet(s, 'acme/api#1', on)).sort()).toEqual(['acme/api#1', 'acme/schema#2']);
    expect(await indexedSet(s, 'acme/web#3', on)).toEqual(['acme/web#3']);
    // The same fork PR by a writer of acme/web groups.
    await s.links.recordWriter('acme/web', 'mallory', true);
    expect((await indexedSet(s, 'acme/api#1', on)).sort()).toEqual([
      'acme/api#1',
      'acme/schema#2',
      'acme/web#3',
    ]);
  });

  it('ignores the member caps: a capped walk would name one set differently from each member', async () => {
    const s = await openStore();
    await pull(s, 'schema', 1);
    await pull(s, 'api', 1, [ref('schema', 1)]);
    await pull(s, 'web', 1, [ref('schema', 1)]);
    const capped = config({ limits: { members: 2 } });
    expect(await indexedSet(s, 'acme/web#1', capped)).toHaveLength(3);
    expect(setKey(await indexedSet(s, 'acme/web#1', capped))).toBe(
      setKey(await indexedSet(s, 'acme/api#1', capped)),
    );
  });
});
