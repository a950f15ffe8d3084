/**
 * The walk of a resolution (`resolve-set.ts`), round by round: PRs read from GitHub (fresh heads
 * and bodies) and recorded in the link index, reverse links found through the index and search
 * (one answer per PR an hour at most: `store-link-searches.ts`), who may consent to them asked
 * of GitHub (`link-consent.ts`), and core's `expandLinkedSet` deciding the set, caps and refusals
 * after each round. PRs whose links to a member nobody confirmed are taken from the index, never
 * read (`stranger-links.ts`).
 */

import { expandLinkedSet, type LinkedSet, type LinkNode, type SetPolicy } from '../../core/linked-set.ts';
import type { OrgConfig, OrgSuite } from '../../core/org-config.schema.ts';
import { type PullRef, parsePullKey, pullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import type { PullInfo } from '../../core/pull-request.schema.ts';
import { type RepoMap, RepoSet, sameRepo } from '../../core/repo-name.ts';
import type { GitHubPort } from '../port/github-port.ts';
import type { Store } from '../store/store.ts';
import { LINK_SEARCH_TTL_MS } from '../store/store-link-searches.ts';
import { BranchGrouping } from './branch-grouping.ts';
import { refreshConsent } from './link-consent.ts';
import { recordPull } from './record-pull.ts';
import { SetPrivacy } from './set-privacy.ts';
import { StoredFacts } from './stored-facts.ts';
import { StrangerLinks } from './stranger-links.ts';

/** Rounds of reading before the walk stops (a PR still known from the index alone is then left out). */
export const MAX_ROUNDS = 12;

export interface WalkScope {
  gh: GitHubPort;
  store: Store;
  installationId: number;
  seedKey: string;
  config: OrgConfig;
  suite: OrgSuite;
}

export class SetWalk {
  /** PRs read from GitHub in this resolution. */
  readonly infos = new Map<string, PullInfo>();
  /** Linked PRs GitHub does not show the App. */
  readonly notFound = new Set<string>();
  /** PRs built from the index alone (`stranger-links.ts`): read once the walk takes them in. */
  readonly indexOnly = new Set<string>();
  readonly privacy: SetPrivacy;
  readonly policy: SetPolicy;
  /** `/tandem unlink` pairs, read from the store when `run` starts. */
  private readonly unlinked = new Set<string>();
  /** What the walk's callbacks read of the store, read ahead of each walk. */
  private readonly facts: StoredFacts;
  private readonly org: string;
  private readonly nodes = new Map<string, LinkNode>();
  /** Members whose reverse links were looked for. */
  private readonly reversed = new Set<string>();
  /** `repo login` pairs GitHub was asked about in this resolution. */
  private readonly asked = new Set<string>();
  /**
   * Same-branch PRs under `group_by_branch`: the org's configuration links them, so the link runs
   * both ways (each side consented through the config), for this resolution only.
   */
  private readonly branchLinks = new Map<string, PullRef[]>();
  private readonly branches: BranchGrouping;
  private readonly strangers: StrangerLinks;

  constructor(
    private readonly scope: WalkScope,
    repoRanks: RepoMap<number>,
  ) {
    const { store, config, suite } = scope;
    this.org = parsePullKey(scope.seedKey).owner;
    this.facts = new StoredFacts(store);
    this.privacy = new SetPrivacy(
      repoRanks,
      (k) => this.infos.get(k)?.visibility ?? this.facts.visibility(k),
      (k) => this.infos.has(k),
    );
    const covered = new RepoSet(suite.repos);
    this.policy = {
      org: this.org,
      covers: (repo: string) => covered.has(repo),
      maxMembers: config.limits.members,
      maxRepos: config.limits.repos,
      unlinked: this.unlinked,
      confirmed: this.facts.confirmed,
      ...(suite.share_private ? {} : { privacy: this.privacy.rankOf }),
    };
    this.branches = new BranchGrouping(scope.gh, store, scope.installationId);
    this.strangers = new StrangerLinks(store, this.facts, config.limits.members);
  }

  /** Reads the seed, then round after round what the set still misses, until nothing is left to read. */
  async run(): Promise<LinkedSet> {
    for (const pair of await this.scope.store.links.unlinkedPairs()) this.unlinked.add(pair);
    await this.load(this.scope.seedKey);
    await this.consent();
    let set = await this.expand();
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const indexed = this.indexOnly.size;
      const toLoad = await this.nextReads(set);
      if (toLoad.size === 0) {
        // PRs this round took from the index alone still count: their unconfirmed links are named
        // whichever member the walk started from.
        if (this.indexOnly.size > indexed) return await this.expand();
        // The pages rank the set's PRs after the walk (`SetPrivacy`): the facts stay read.
        await this.readAhead();
        return set;
      }
      await Promise.all([...toLoad].map((k) => this.load(k)));
      await this.consent();
      set = await this.expand();
    }
    await this.readAhead();
    return set;
  }

  /** One round's reads: PRs the set misses, index-only PRs it took in, and new reverse links' PRs. */
  async nextReads(set: LinkedSet): Promise<Set<string>> {
    const toLoad = new Set(set.missing);
    for (const k of [...set.members, ...set.left.map((l) => l.key)]) if (this.indexOnly.has(k)) toLoad.add(k);
    for (const m of set.members) {
      if (this.reversed.has(m)) continue;
      this.reversed.add(m);
      const candidates = await this.reverseCandidates(m);
      // Asking about same-branch peers may have recorded new answers.
      this.facts.forget();
      for (const k of candidates) {
        if (this.nodes.has(k)) continue;
        const fromIndex = this.isBranchPeer(m, k) ? undefined : await this.strangers.indexNode(k, m);
        if (fromIndex) {
          this.nodes.set(k, fromIndex);
          this.indexOnly.add(k);
        } else toLoad.add(k);
      }
    }
    return toLoad;
  }

  /** PRs that point at a member: the index first, search for what it has not seen, same-branch peers. */
  async reverseCandidates(key: string): Promise<string[]> {
    const out = new Set(await this.scope.store.links.to(key));
    for (const k of await this.searchedLinkers(key)) out.add(k);
    const info = this.infos.get(key);
    if (this.scope.config.group_by_branch && info) {
      // A fork's branch named like a member's is no link: only the org's own branches group.
      for (const k of await this.branches.peers(info, this.scope.suite.repos)) {
        out.add(k);
        if (!this.isBranchPeer(key, k)) this.linkByBranch(info.ref, parsePullKey(k));
      }
    }
    return [...out].filter(
      (k) => sameRepo(parsePullKey(k).owner, this.org) && this.policy.covers(repoOfPullKey(k)),
    );
  }

  /**
   * What search says links to `key`: a stored answer younger than the TTL (or the App having seen
   * the PR opened) stands in for a new search; each hit is re-read and judged like a fresh one.
   */
  async searchedLinkers(key: string): Promise<string[]> {
    const { store, gh } = this.scope;
    const known = await store.linkSearches.answer(key, Date.now() - LINK_SEARCH_TTL_MS);
    if (known) return known;
    const found = await gh.searchLinkingPulls(this.org, parsePullKey(key));
    if (!found) return [];
    const keys = found.map(pullKey);
    await store.linkSearches.record(key, keys);
    return keys;
  }

  /** Reads one PR from GitHub into the walk (and the index); one GitHub cannot show is `closed`. */
  private async load(key: string): Promise<void> {
    this.indexOnly.delete(key);
    const pull = await this.scope.gh.pull(parsePullKey(key));
    if (!pull) {
      this.notFound.add(key);
      this.nodes.set(key, { ref: parsePullKey(key), state: 'closed', links: [] });
      return;
    }
    await recordPull(this.scope.store, pull, this.scope.installationId);
    this.infos.set(key, pull);
    this.nodes.set(key, {
      ref: pull.ref,
      state: pull.state,
      links: [...(await this.scope.store.links.from(key)), ...(this.branchLinks.get(key) ?? [])],
    });
  }

  /** GitHub's word on who may consent to the links between the PRs read so far. */
  private async consent(): Promise<void> {
    for (const [key, info] of this.infos)
      await refreshConsent(this.scope.gh, this.scope.store, key, info.author, this.asked, (to) =>
        this.nodes.has(to),
      );
  }

  /** Core's walk over the nodes so far, on the store's facts as they are now. */
  private async expand(): Promise<LinkedSet> {
    await this.readAhead();
    return expandLinkedSet(this.scope.seedKey, this.nodes, this.policy);
  }

  /** Reads afresh what a walk over the nodes so far asks of the store (`stored-facts.ts`). */
  private async readAhead(): Promise<void> {
    this.facts.forget();
    await this.facts.readNodes(this.nodes);
    await this.facts.readPulls([this.scope.seedKey]);
  }

  private linkByBranch(a: PullRef, b: PullRef): void {
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      const k = pullKey(from);
      this.branchLinks.set(k, [...(this.branchLinks.get(k) ?? []), to]);
      this.nodes.get(k)?.links.push(to);
    }
  }

  private isBranchPeer(a: string, b: string): boolean {
    return this.branchLinks.get(a)?.some((r) => pullKey(r) === b) ?? false;
  }
}
