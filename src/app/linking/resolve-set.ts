/**
 * Resolves the linked change around a seed PR: loads PRs from GitHub (fresh heads and bodies),
 * keeps the link index current, finds reverse links through the index and search, and lets
 * core/linked-set decide the component, caps and refusals.
 */
import { parseLinks } from '../../core/link-parser.ts';
import { expandLinkedSet, type LinkNode, type Refusal } from '../../core/linked-set.ts';
import type { OrgConfig, OrgSuite } from '../../core/org-config.schema.ts';
import { parsePullKey, pullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import type { PullInfo } from '../../core/pull-request.schema.ts';
import { RepoSet, sameRepo } from '../../core/repo-name.ts';
import type { GitHub } from '../../github/octokit.ts';
import { getPull, openPullsWithHead, searchLinkingPulls } from '../../github/pull-requests.ts';
import type { LeftMember } from '../../report/linked-change.ts';
import type { Store } from '../store/store.ts';

export interface ResolvedSet {
  members: PullInfo[];
  left: LeftMember[];
  refused: Refusal[];
}

/** Records a PR (from a webhook or the API) in the link index. */
export function recordPull(store: Store, pull: PullInfo, installationId: number): void {
  store.pulls.upsert({
    ...pull.ref,
    installationId,
    state: pull.state,
    headSha: pull.headSha,
    headRef: pull.headRef,
    baseRef: pull.baseRef,
    links: parseLinks(pull.title, pull.body, pull.ref),
  });
}

const MAX_ROUNDS = 12;

export async function resolveLinkedSet(
  gh: GitHub,
  store: Store,
  installationId: number,
  seedKey: string,
  config: OrgConfig,
  suite: OrgSuite,
): Promise<ResolvedSet> {
  const org = parsePullKey(seedKey).owner;
  const covered = new RepoSet(suite.repos);
  const policy = {
    org,
    covers: (repo: string) => covered.has(repo),
    maxMembers: config.limits.members,
    maxRepos: config.limits.repos,
    unlinked: store.links.unlinkedPairs(),
  };
  const infos = new Map<string, PullInfo>();
  const nodes = new Map<string, LinkNode>();
  const notFound = new Set<string>();
  const reversed = new Set<string>();

  const load = async (key: string) => {
    const pull = await getPull(gh, parsePullKey(key));
    if (!pull) {
      notFound.add(key);
      nodes.set(key, { ref: parsePullKey(key), state: 'closed', links: [] });
      return;
    }
    recordPull(store, pull, installationId);
    infos.set(key, pull);
    nodes.set(key, { ref: pull.ref, state: pull.state, links: store.links.from(key) });
  };

  /** PRs that point at a member: the index first, search for what it has not seen. */
  const reverseCandidates = async (key: string): Promise<string[]> => {
    const out = new Set(store.links.to(key));
    for (const ref of await searchLinkingPulls(gh, org, parsePullKey(key))) out.add(pullKey(ref));
    const info = infos.get(key);
    if (config.group_by_branch && info) {
      for (const repo of suite.repos) {
        const [owner, name] = repo.split('/');
        for (const p of await openPullsWithHead(gh, { owner: owner!, repo: name! }, info.headRef)) {
          const k = pullKey(p.ref);
          if (k === key) continue;
          // Same branch name: a link as if the body had said so (for this resolution only).
          out.add(k);
          nodes.get(key)?.links.push(p.ref);
        }
      }
    }
    return [...out].filter((k) => sameRepo(parsePullKey(k).owner, org) && policy.covers(repoOfPullKey(k)));
  };

  await load(seedKey);
  let set = expandLinkedSet(seedKey, nodes, policy);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const toLoad = new Set(set.missing);
    for (const m of set.members) {
      if (reversed.has(m)) continue;
      reversed.add(m);
      for (const k of await reverseCandidates(m)) if (!nodes.has(k)) toLoad.add(k);
    }
    if (toLoad.size === 0) break;
    await Promise.all([...toLoad].map(load));
    set = expandLinkedSet(seedKey, nodes, policy);
  }
  const refused = [
    ...set.refused,
    ...[...notFound].map((k) => ({ from: seedKey, to: k, reason: 'not found or not visible to the App' })),
  ];
  return {
    members: set.members.map((k) => infos.get(k)!),
    left: set.left
      .filter((l) => !notFound.has(l.key))
      .map((l) => {
        const baseRef = l.state === 'merged' ? infos.get(l.key)?.baseRef : undefined;
        return baseRef ? { ...l, baseRef } : l;
      }),
    refused,
  };
}
