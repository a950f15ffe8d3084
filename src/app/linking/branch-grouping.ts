/**
 * Who `group_by_branch` groups. A branch name is no consent: anyone can open a PR from a fork
 * whose branch is called like a maintainer's. So same-named branches group only for PRs whose
 * head branch lives in the base repository itself (pushing there takes write access), or whose
 * author has write access to the base repository. Everyone else links with `Depends-On` like
 * any other PR (`link-consent.ts`). The index (`indexed-set.ts`) judges by the stored answers,
 * the evaluation (`resolve-set.ts`) asks GitHub what the store does not know yet.
 */
import { pullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import type { PullInfo } from '../../core/pull-request.schema.ts';
import { sameRepo } from '../../core/repo-name.ts';
import type { GitHubPort } from '../port/github-port.ts';
import type { Store } from '../store/store.ts';

/** What the rule reads of a PR: its key, where its head lives and who opened it. */
export interface BranchCandidate {
  key: string;
  headRepo?: string | undefined;
  author?: string | undefined;
}

/** True when the head branch lives in the base repository: no write access is asked. */
function branchInBase(pull: BranchCandidate): boolean {
  return pull.headRepo !== undefined && sameRepo(pull.headRepo, repoOfPullKey(pull.key));
}

/** The rule on the stored answers: a fork PR whose author was never asked about does not group. */
export async function groupsByBranch(store: Store, pull: BranchCandidate): Promise<boolean> {
  if (branchInBase(pull)) return true;
  return (
    pull.author !== undefined && (await store.links.isWriter(repoOfPullKey(pull.key), pull.author)) === true
  );
}

/** Asks GitHub whether a fork PR's author writes to the base repository, and records the answer. */
export async function refreshBranchConsent(
  gh: GitHubPort,
  store: Store,
  pull: BranchCandidate,
): Promise<void> {
  if (branchInBase(pull) || pull.author === undefined) return;
  const repo = repoOfPullKey(pull.key);
  await store.links.recordWriter(repo, pull.author, await gh.canWrite(repo, pull.author));
}

export const branchCandidate = (p: PullInfo): BranchCandidate => ({
  key: pullKey(p.ref),
  headRepo: p.headRepo,
  author: p.author,
});

/** One resolution's view: GitHub asked once per PR, both ways of finding same-named branches. */
export class BranchGrouping {
  private readonly answers = new Map<string, boolean>();

  constructor(
    private readonly gh: GitHubPort,
    private readonly store: Store,
    private readonly installationId: number,
  ) {}

  async groups(pull: BranchCandidate): Promise<boolean> {
    if (!this.answers.has(pull.key)) {
      await refreshBranchConsent(this.gh, this.store, pull);
      this.answers.set(pull.key, await groupsByBranch(this.store, pull));
    }
    return this.answers.get(pull.key)!;
  }

  /**
   * The open PRs `pull` groups with by branch name (none when it may not group itself): GitHub's
   * list finds the org's own branches (`head: org:branch`), the index also knows PRs from forks.
   */
  async peers(pull: PullInfo, repos: readonly string[]): Promise<string[]> {
    const self = branchCandidate(pull);
    if (!(await this.groups(self))) return [];
    const out = new Set<string>();
    for (const repo of repos)
      for (const p of await this.gh.openPullsWithHead(repo, pull.headRef))
        if (await this.groups(branchCandidate(p))) out.add(pullKey(p.ref));
    // The index's fork PRs are judged by the answers recorded when their webhooks came, never
    // asked again here: a hundred forks on a branch named like a member's cost the set nothing.
    for (const p of await this.store.pulls.withHeadRef(this.installationId, pull.headRef))
      if (await groupsByBranch(this.store, p)) out.add(p.key);
    out.delete(self.key);
    return [...out];
  }
}
