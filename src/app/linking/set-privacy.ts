/**
 * How private each PR and repository a resolution meets is (`core/page-privacy.ts` ranks): what
 * the walk judges PRs by before they are read, and what decides which names the set's pages may
 * show. Unless the suite opts in (`share_private`), GitHub is asked once per resolution how
 * private each covered repository is.
 */
import type { OrgSuite } from '../../core/org-config.schema.ts';
import type { RankOf } from '../../core/page-privacy.ts';
import { repoOfPullKey } from '../../core/pull-ref.ts';
import { RepoMap } from '../../core/repo-name.ts';
import { privacyRank, type RepoVisibility } from '../../core/repo-visibility.ts';
import type { GitHubPort } from '../port/github-port.ts';

/** Each covered repository's rank, as GitHub says it; none asked when the suite shares private ones. */
export async function coveredRepoRanks(gh: GitHubPort, suite: OrgSuite): Promise<RepoMap<number>> {
  const ranks = new RepoMap<number>();
  if (suite.share_private) return ranks;
  for (const repo of suite.repos) ranks.set(repo, privacyRank((await gh.repo(repo)).visibility));
  return ranks;
}

export class SetPrivacy {
  constructor(
    private readonly repoRanks: RepoMap<number>,
    /** A PR's visibility as read or as the index recorded it, if known. */
    private readonly visibility: (key: string) => RepoVisibility | undefined,
    /** Whether the resolution read the PR from GitHub. */
    private readonly read: (key: string) => boolean,
  ) {}

  /** A PR's rank for the walk: its own visibility, else its repository's, else private. */
  readonly rankOf = (key: string): number => {
    const v = this.visibility(key);
    return v ? privacyRank(v) : (this.repoRanks.get(repoOfPullKey(key)) ?? privacyRank(undefined));
  };

  /**
   * Ranks for the set's pages, of PR keys and repositories. A PR of a repository no suite covers
   * is never read: only the name its linker wrote is repeated, so it counts as public (its linker
   * decides whether it may be named).
   */
  readonly pageRankOf: RankOf = (k) => {
    if (!k.includes('#')) return this.repoRanks.get(k) ?? privacyRank(undefined);
    const known = this.read(k) || this.visibility(k) !== undefined || this.repoRanks.has(repoOfPullKey(k));
    return known ? this.rankOf(k) : 0;
  };
}
