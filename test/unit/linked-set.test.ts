import { describe, expect, it } from 'vitest';
import {
  expandLinkedSet,
  type LinkNode,
  pairKey,
  type SetPolicy,
  setKey,
  UNCONFIRMED_REASON,
} from '../../src/core/linked-set.ts';
import type { PullRef } from '../../src/core/pull-ref.ts';

function ref(key: string): PullRef {
  const [repoPart, n] = key.split('#');
  const [owner, repo] = repoPart!.split('/');
  return { owner: owner!, repo: repo!, number: Number(n) };
}

function graph(spec: Record<string, { links?: string[]; state?: LinkNode['state'] }>): Map<string, LinkNode> {
  return new Map(
    Object.entries(spec).map(([k, v]) => [
      k,
      { ref: ref(k), state: v.state ?? 'open', links: (v.links ?? []).map(ref) },
    ]),
  );
}

const policy: SetPolicy = {
  org: 'acme',
  covers: (r) => ['acme/schema', 'acme/api', 'acme/web', 'acme/docs'].includes(r),
  maxMembers: 8,
  maxRepos: 8,
};

describe('expandLinkedSet', () => {
  it('follows links in both directions from any member', () => {
    const nodes = graph({
      'acme/api#1': { links: ['acme/schema#2'] },
      'acme/schema#2': {},
      'acme/web#3': { links: ['acme/schema#2'] },
    });
    const set = expandLinkedSet('acme/schema#2', nodes, policy);
    expect(set.members).toEqual(['acme/schema#2', 'acme/api#1', 'acme/web#3']);
    expect(set.missing).toEqual([]);
    expect(expandLinkedSet('acme/web#3', nodes, policy).members.sort()).toEqual(set.members.sort());
  });

  it('treats cycles as normal', () => {
    const nodes = graph({
      'acme/api#1': { links: ['acme/schema#2'] },
      'acme/schema#2': { links: ['acme/web#3'] },
      'acme/web#3': { links: ['acme/api#1'] },
    });
    expect(expandLinkedSet('acme/api#1', nodes, policy).members).toHaveLength(3);
  });

  it('reports unloaded neighbours as missing', () => {
    const set = expandLinkedSet('acme/api#1', graph({ 'acme/api#1': { links: ['acme/web#4'] } }), policy);
    expect(set.members).toEqual(['acme/api#1']);
    expect(set.missing).toEqual(['acme/web#4']);
  });

  it('refuses links to other organizations and uncovered repositories without following them', () => {
    const nodes = graph({
      'acme/api#1': { links: ['evil/api#1', 'acme/infra#5', 'acme/web#2'] },
      'acme/web#2': {},
    });
    const set = expandLinkedSet('acme/api#1', nodes, policy);
    expect(set.members).toEqual(['acme/api#1', 'acme/web#2']);
    expect(set.missing).toEqual([]);
    expect(set.refused.map((r) => [r.to, r.reason])).toEqual([
      ['evil/api#1', 'evil/api is outside the acme organization'],
      ['acme/infra#5', 'no suite covers acme/infra'],
    ]);
  });

  it('caps members and repositories', () => {
    const nodes = graph({
      'acme/api#1': { links: ['acme/web#2', 'acme/schema#3', 'acme/docs#4'] },
      'acme/web#2': {},
      'acme/schema#3': {},
      'acme/docs#4': {},
    });
    const byMembers = expandLinkedSet('acme/api#1', nodes, { ...policy, maxMembers: 2 });
    expect(byMembers.members).toEqual(['acme/api#1', 'acme/web#2']);
    expect(byMembers.refused.map((r) => r.to)).toEqual(['acme/schema#3', 'acme/docs#4']);
    expect(byMembers.refused[0]!.reason).toContain('2 members');
    const byRepos = expandLinkedSet('acme/api#1', nodes, { ...policy, maxRepos: 1 });
    expect(byRepos.members).toEqual(['acme/api#1']);
    expect(byRepos.refused[0]!.reason).toContain('1 repositories');
  });

  it('drops closed and merged PRs from the set without traversing them', () => {
    const nodes = graph({
      'acme/api#1': { links: ['acme/web#2', 'acme/schema#3'] },
      'acme/web#2': { state: 'closed', links: ['acme/docs#9'] },
      'acme/schema#3': { state: 'merged' },
    });
    const set = expandLinkedSet('acme/api#1', nodes, policy);
    expect(set.members).toEqual(['acme/api#1']);
    expect(set.left).toEqual([
      { key: 'acme/web#2', state: 'closed' },
      { key: 'acme/schema#3', state: 'merged' },
    ]);
    expect(set.missing).toEqual([]);
  });

  it('honours unlinked pairs in both directions', () => {
    const nodes = graph({ 'acme/api#1': { links: ['acme/web#2'] }, 'acme/web#2': {} });
    const set = expandLinkedSet('acme/web#2', nodes, {
      ...policy,
      unlinked: new Set([pairKey('acme/web#2', 'acme/api#1')]),
    });
    expect(set.members).toEqual(['acme/web#2']);
  });

  it('a link counts backwards only with consent: the linker needs the PR, the PR never joins', () => {
    const nodes = graph({ 'acme/api#1': {}, 'acme/web#2': { links: ['acme/api#1'] } });
    const strict = { ...policy, confirmed: () => false };
    const api = expandLinkedSet('acme/api#1', nodes, strict);
    expect(api.members).toEqual(['acme/api#1']);
    expect(api.refused).toEqual([
      { from: 'acme/web#2', to: 'acme/api#1', reason: UNCONFIRMED_REASON, foreign: true },
    ]);
    const web = expandLinkedSet('acme/web#2', nodes, strict);
    expect(web.members).toEqual(['acme/web#2', 'acme/api#1']);
    expect(web.joined).toEqual(['acme/web#2']);
    const confirmed = expandLinkedSet('acme/api#1', nodes, { ...policy, confirmed: () => true });
    expect(confirmed.joined).toEqual(['acme/api#1', 'acme/web#2']);
  });

  it('never enters a more private PR, and only as-private members join', () => {
    const nodes = graph({
      'acme/api#1': { links: ['acme/schema#2'] },
      'acme/schema#2': { links: ['acme/api#1'] },
    });
    const privacy = (k: string) => (k.startsWith('acme/schema') ? 2 : 0);
    const pub = expandLinkedSet('acme/api#1', nodes, { ...policy, privacy });
    expect(pub.members).toEqual(['acme/api#1']);
    expect(pub.refused).toEqual([]);
    const priv = expandLinkedSet('acme/schema#2', nodes, { ...policy, privacy });
    expect(priv.members).toEqual(['acme/schema#2', 'acme/api#1']);
    expect(priv.joined).toEqual(['acme/schema#2']);
  });

  it("marks cap refusals through a needed PR's links as foreign, and a would-be member's as member", () => {
    const nodes = graph({
      'acme/api#1': { links: ['acme/web#2', 'acme/schema#3'] },
      'acme/web#2': { links: ['acme/api#1'] },
      'acme/schema#3': { links: ['acme/docs#4', 'acme/docs#5'] },
    });
    const set = expandLinkedSet('acme/api#1', nodes, { ...policy, maxMembers: 3, confirmed: () => false });
    expect(set.joined).toEqual(['acme/api#1', 'acme/web#2']);
    expect(set.refused.map((r) => [r.to, r.foreign ?? false, r.member ?? false])).toEqual([
      ['acme/docs#4', true, false],
      ['acme/docs#5', true, false],
    ]);
  });

  it('names a set by its smallest member', () => {
    expect(setKey(['acme/web#2', 'acme/api#1'])).toBe('acme/api#1');
  });
});
