/**
 * Resolves the linked change around a seed PR: loads PRs from GitHub (fresh heads and bodies),
 * keeps the link index current, finds reverse links through the index and search (one answer per
 * PR an hour at most: `store-link-searches.ts`; the webhook-fed index covers the rest), asks GitHub
 * who may consent to them (`link-consent.ts`), and lets core/linked-set decide the set, caps and
 * refusals. PRs whose links to a member nobody confirmed are taken from the index, never read
 * (`stranger-links.ts`): strangers' links cost the set nothing. Privacy is decided here, once,
 * for everything downstream: unless the suite opts in (`share_private`), nothing of a repository
 * more private than the seed's enters the set, its context or its refusals, and members less
 * private than another member only need the set.
 */
import { parseLinks } from '../../core/link-parser.ts';
import { expandLinkedSet, type LinkNode, type Refusal } from '../../core/linked-set.ts';
import type { OrgConfig, OrgSuite } from '../../core/org-config.schema.ts';
import { pageSees, type RankOf } from '../../core/page-privacy.ts';
import { type PullRef, parsePullKey, pullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import type { PullInfo } from '../../core/pull-request.schema.ts';
import { RepoSet, sameRepo } from '../../core/repo-name.ts';
import { privacyRank } from '../../core/repo-visibility.ts';
import type { GitHub } from '../../github/octokit.ts';
import { repoId } from '../../github/octokit.ts';
import { getPull, getRepo, searchLinkingPulls } from '../../github/pull-requests.ts';
import type { LeftMember } from '../../report/linked-change.ts';
import type { Store } from '../store/store.ts';
import { LINK_SEARCH_TTL_MS } from '../store/store-link-searches.ts';
import { BranchGrouping, branchCandidate, refreshBranchConsent } from './branch-grouping.ts';
import { refreshConsent, storedConsent } from './link-consent.ts';
import { StrangerLinks } from './stranger-links.ts';

export interface ResolvedSet {
  /** The members the set speaks for: its checks, comments and merge. */
  members: PullInfo[];
  /** PRs the members need whose side did not join: evaluated with the set, never published on. */
  needed: PullInfo[];
  left: LeftMember[];
  refused: Refusal[];
  /** The suite's repositories this set may take as context: none of a member or needed PR, none more private than the seed's. */
  context: string[];
  /**
   * How private each PR key or repository this resolution read is (core/page-privacy.ts); a PR
   * never read (no suite covers its repository) counts as its linker does: only the name the
   * linker wrote is repeated, and only where the linker may be named.
   */
  rankOf: RankOf;
  /** The suite shares private repositories (`share_private`): every page may see every member. */
  sharePrivate: boolean;
}

/** Records a PR (from a webhook or the API) in the link index. */
export function recordPull(store: Store, pull: PullInfo, installationId: number): void {
  store.pulls.upsert({
    ...pull.ref,
    installationId,
    state: pull.state,
    headSha: pull.headSha,
    headRef: pull.headRef,
    headRepo: pull.headRepo,
    baseRef: pull.baseRef,
    links: parseLinks(pull.title, pull.body, pull.ref),
    author: pull.author,
    visibility: pull.visibility,
  });
}

/**
 * An open PR's webhook, before its evaluation is queued: recorded (whether its links count for
 * the PRs they point at is known before the set is named), marked seen from its creation when
 * opened (every link to it then reaches the index by webhook, no search needed), and who may
 * confirm its links asked of GitHub. That answer may fail: the evaluation asks again.
 */
export async function recordOpenPull(
  gh: GitHub,
  store: Store,
  pull: PullInfo,
  installationId: number,
  opened: boolean,
  log: { warn: (o: object, m: string) => void },
): Promise<void> {
  recordPull(store, pull, installationId);
  if (opened) store.linkSearches.openedSeen(pullKey(pull.ref));
  try {
    await refreshConsent(gh, store, pullKey(pull.ref), pull.author);
    await refreshBranchConsent(gh, store, branchCandidate(pull));
  } catch (e) {
    log.warn({ err: e, pull: pullKey(pull.ref) }, 'could not check who may confirm its links');
  }
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
  const infos = new Map<string, PullInfo>();
  // How private each covered repository is (GitHub's word, once per resolution): what a PR not
  // loaded yet is judged by, and what decides the context.
  const repoRanks = new Map<string, number>();
  if (!suite.share_private)
    for (const repo of suite.repos)
      repoRanks.set(repo.toLowerCase(), privacyRank((await getRepo(gh, repoId(repo))).visibility));
  const rankOf = (key: string) => {
    const v = infos.get(key)?.visibility ?? store.pulls.facts(key)?.visibility;
    return v ? privacyRank(v) : (repoRanks.get(repoOfPullKey(key).toLowerCase()) ?? privacyRank(undefined));
  };
  const policy = {
    org,
    covers: (repo: string) => covered.has(repo),
    maxMembers: config.limits.members,
    maxRepos: config.limits.repos,
    unlinked: store.links.unlinkedPairs(),
    confirmed: storedConsent(store),
    ...(suite.share_private ? {} : { privacy: rankOf }),
  };
  const asked = new Set<string>();
  /** GitHub's word on who may consent to the links between the PRs loaded so far. */
  const consent = async () => {
    for (const [key, info] of infos)
      await refreshConsent(gh, store, key, info.author, asked, (to) => nodes.has(to));
  };
  const nodes = new Map<string, LinkNode>();
  const notFound = new Set<string>();
  const reversed = new Set<string>();

  /**
   * Same-branch PRs under `group_by_branch`: the org's configuration links them, so the link runs
   * both ways (each side consented through the config), for this resolution only.
   */
  const branchLinks = new Map<string, PullRef[]>();
  const linkByBranch = (a: PullRef, b: PullRef) => {
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const k = pullKey(from);
      branchLinks.set(k, [...(branchLinks.get(k) ?? []), to]);
      nodes.get(k)?.links.push(to);
    }
  };
  const isBranchPeer = (a: string, b: string) => branchLinks.get(a)?.some((r) => pullKey(r) === b) ?? false;
  const load = async (key: string) => {
    indexOnly.delete(key);
    const pull = await getPull(gh, parsePullKey(key));
    if (!pull) {
      notFound.add(key);
      nodes.set(key, { ref: parsePullKey(key), state: 'closed', links: [] });
      return;
    }
    recordPull(store, pull, installationId);
    infos.set(key, pull);
    nodes.set(key, {
      ref: pull.ref,
      state: pull.state,
      links: [...store.links.from(key), ...(branchLinks.get(key) ?? [])],
    });
  };

  /**
   * What search says links to `key`: a stored answer younger than the TTL (or the App having seen
   * the PR opened) stands in for a new search; each hit is re-read and judged like a fresh one.
   */
  const searchedLinkers = async (key: string): Promise<string[]> => {
    const known = store.linkSearches.answer(key, Date.now() - LINK_SEARCH_TTL_MS);
    if (known) return known;
    const found = await searchLinkingPulls(gh, org, parsePullKey(key));
    if (!found) return [];
    const keys = found.map(pullKey);
    store.linkSearches.record(key, keys);
    return keys;
  };

  const branches = new BranchGrouping(gh, store, installationId);

  /** PRs that point at a member: the index first, search for what it has not seen. */
  const reverseCandidates = async (key: string): Promise<string[]> => {
    const out = new Set(store.links.to(key));
    for (const k of await searchedLinkers(key)) out.add(k);
    const info = infos.get(key);
    if (config.group_by_branch && info) {
      // A fork's branch named like a member's is no link: only the org's own branches group.
      for (const k of await branches.peers(info, suite.repos)) {
        out.add(k);
        if (!branchLinks.get(key)?.some((r) => pullKey(r) === k)) linkByBranch(info.ref, parsePullKey(k));
      }
    }
    return [...out].filter((k) => sameRepo(parsePullKey(k).owner, org) && policy.covers(repoOfPullKey(k)));
  };

  const strangers = new StrangerLinks(store, policy.confirmed, config.limits.members);
  /** PRs built from the index alone (`stranger-links.ts`): read once the walk takes them in. */
  const indexOnly = new Set<string>();

  await load(seedKey);
  await consent();
  let set = expandLinkedSet(seedKey, nodes, policy);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const toLoad = new Set(set.missing);
    for (const k of [...set.members, ...set.left.map((l) => l.key)]) if (indexOnly.has(k)) toLoad.add(k);
    for (const m of set.members) {
      if (reversed.has(m)) continue;
      reversed.add(m);
      for (const k of await reverseCandidates(m)) {
        if (nodes.has(k)) continue;
        const fromIndex = isBranchPeer(m, k) ? undefined : strangers.indexNode(k, m);
        if (fromIndex) {
          nodes.set(k, fromIndex);
          indexOnly.add(k);
        } else toLoad.add(k);
      }
    }
    if (toLoad.size === 0) break;
    await Promise.all([...toLoad].map(load));
    await consent();
    set = expandLinkedSet(seedKey, nodes, policy);
  }
  const joined = new Set(set.joined);
  const seedRank = rankOf(seedKey);
  // Nothing more private than the seed is named, not even as a link not followed. A PR of a
  // repository no suite covers is never read: only the name its linker wrote is repeated.
  const known = (key: string) =>
    infos.has(key) ||
    store.pulls.facts(key)?.visibility !== undefined ||
    repoRanks.has(repoOfPullKey(key).toLowerCase());
  const setRankOf: RankOf = (k) =>
    k.includes('#') ? (known(k) ? rankOf(k) : 0) : (repoRanks.get(k.toLowerCase()) ?? privacyRank(undefined));
  const visible = pageSees(seedRank, setRankOf, suite.share_private);
  const refused = [
    ...set.refused.filter((r) => visible(r.from) && visible(r.to)),
    ...[...notFound].map((k) => ({ from: seedKey, to: k, reason: 'not found or not visible to the App' })),
  ];
  const context = suite.repos.filter(
    (repo) => !set.members.some((k) => sameRepo(repoOfPullKey(k), repo)) && visible(repo),
  );
  // Past the rounds, a PR still known from the index alone is not evaluated on a guess.
  const read = (k: string) => infos.has(k);
  return {
    members: set.joined.filter(read).map((k) => infos.get(k)!),
    needed: set.members.filter((k) => !joined.has(k) && read(k)).map((k) => infos.get(k)!),
    context,
    left: set.left
      .filter((l) => !notFound.has(l.key) && !indexOnly.has(l.key) && visible(l.key))
      .map((l) => {
        const baseRef = l.state === 'merged' ? infos.get(l.key)?.baseRef : undefined;
        return baseRef ? { ...l, baseRef } : l;
      }),
    refused,
    rankOf: setRankOf,
    sharePrivate: suite.share_private,
  };
}
