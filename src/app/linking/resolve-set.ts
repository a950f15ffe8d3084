/**
 * Resolves the linked change around a seed PR in three phases: how private each covered
 * repository is (`set-privacy.ts`), the walk that reads PRs and decides the set
 * (`set-walk.ts`), and what of it the set's pages may name (`publishableSet`, below). Privacy
 * is decided here, once, for everything downstream: unless the suite opts in (`share_private`),
 * nothing of a repository more private than the seed's enters the set, its context or its
 * refusals, and members less private than another member only need the set.
 */
import type { LinkedSet, Refusal } from '../../core/linked-set.ts';
import type { OrgConfig, OrgSuite } from '../../core/org-config.schema.ts';
import { pageSees, type RankOf } from '../../core/page-privacy.ts';
import { repoOfPullKey } from '../../core/pull-ref.ts';
import type { PullInfo } from '../../core/pull-request.schema.ts';
import { sameRepo } from '../../core/repo-name.ts';
import type { LeftMember } from '../../report/linked-change.ts';
import type { GitHubPort } from '../port/github-port.ts';
import type { Store } from '../store/store.ts';
import { coveredRepoRanks } from './set-privacy.ts';
import { SetWalk } from './set-walk.ts';

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

export async function resolveLinkedSet(
  gh: GitHubPort,
  store: Store,
  installationId: number,
  seedKey: string,
  config: OrgConfig,
  suite: OrgSuite,
): Promise<ResolvedSet> {
  const ranks = await coveredRepoRanks(gh, suite);
  const walk = new SetWalk({ gh, store, installationId, seedKey, config, suite }, ranks);
  const set = await walk.run();
  return publishableSet(walk, set, seedKey, suite);
}

/**
 * The walk's set as the rest of the App takes it: members and needed PRs only as read (past the
 * rounds, a PR still known from the index alone is not evaluated on a guess), and nothing more
 * private than the seed named, not even as a link not followed.
 */
export function publishableSet(
  walk: Pick<SetWalk, 'infos' | 'notFound' | 'indexOnly' | 'privacy'>,
  set: LinkedSet,
  seedKey: string,
  suite: OrgSuite,
): ResolvedSet {
  const { infos, notFound, indexOnly, privacy } = walk;
  const joined = new Set(set.joined);
  const visible = pageSees(privacy.rankOf(seedKey), privacy.pageRankOf, suite.share_private);
  const read = (k: string) => infos.has(k);
  return {
    members: set.joined.filter(read).map((k) => infos.get(k)!),
    needed: set.members.filter((k) => !joined.has(k) && read(k)).map((k) => infos.get(k)!),
    context: suite.repos.filter(
      (repo) => !set.members.some((k) => sameRepo(repoOfPullKey(k), repo)) && visible(repo),
    ),
    left: set.left
      .filter((l) => !notFound.has(l.key) && !indexOnly.has(l.key) && visible(l.key))
      .map((l) => {
        const baseRef = l.state === 'merged' ? infos.get(l.key)?.baseRef : undefined;
        return baseRef ? { ...l, baseRef } : l;
      }),
    refused: [
      ...set.refused.filter((r) => visible(r.from) && visible(r.to)),
      ...[...notFound].map((k) => ({ from: seedKey, to: k, reason: 'not found or not visible to the App' })),
    ],
    rankOf: privacy.pageRankOf,
    sharePrivate: suite.share_private,
  };
}
