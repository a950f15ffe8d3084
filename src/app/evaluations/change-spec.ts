/**
 * The linked change as an executor gets it: members as merge targets (head onto the current tip
 * of their base branch), the suite's other repositories as context, the fetched suite, and
 * where `tandem.yml` says to run it.
 */
import type { BranchTarget, ContextRepo } from '../../core/case.schema.ts';
import type { MatrixMode } from '../../core/matrix-mode.ts';
import type { OrgConfig, OrgSuite } from '../../core/org-config.schema.ts';
import { pullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import { RepoMap, sameRepo } from '../../core/repo-name.ts';
import type { Suite } from '../../core/suite.schema.ts';
import type { LinkedChangeSpec } from '../executors/executor.ts';
import type { ResolvedSet } from '../linking/resolve-set.ts';
import type { GitHubPort } from '../port/github-port.ts';

export interface ChangeSpecInput {
  evaluationId: number;
  set: ResolvedSet;
  config: OrgConfig;
  suiteEntry: OrgSuite;
  suite: { suite: Suite; suiteDir: string };
  matrix: MatrixMode | undefined;
  /**
   * Member repositories taken at one exact commit with nothing applied (a merge queue's merge
   * commit, already base + the queued PRs; the linked-set queue's tested commit of each member
   * repository on its speculative base): its head state is `head` as is, its base `base`.
   */
  pinned?: readonly PinnedRepo[];
}

export interface PinnedRepo {
  repo: string;
  base: string;
  head: string;
}

export async function buildChangeSpec(gh: GitHubPort, input: ChangeSpecInput): Promise<LinkedChangeSpec> {
  const { config, set } = input;
  return {
    evaluationId: input.evaluationId,
    name: `linked change ${[...set.members, ...set.needed].map((m) => pullKey(m.ref)).join(' ')}`,
    suite: input.suite.suite,
    suiteDir: input.suite.suiteDir,
    suitePath: input.suiteEntry.path,
    matrix: input.matrix ?? config.matrix,
    ...(await workspaceOf(gh, set, input.pinned)),
    ...(config.executor === 'actions' ? { actions: { ...config.actions, evaluator: config.evaluator } } : {}),
    ...(config.executor === 'workers' ? { workers: true as const } : {}),
  };
}

/**
 * Members, and the PRs they need, are merge targets (head onto the current tip of their base
 * branch); the suite's other repositories the set may see (`set.context`: never one more private
 * than the seed's, `resolve-set.ts`) are context at their default branch, except a repository a member was merged
 * into, which is taken at its new base: the tip of the branch the PR went into. A pinned
 * member is a plain target at its commit (`merge: false` checks out exactly `head`); a pinned
 * context repository is checked out at its `head`.
 */
async function workspaceOf(
  gh: GitHubPort,
  set: ResolvedSet,
  pinned: readonly PinnedRepo[] | undefined,
): Promise<{ targets: BranchTarget[]; context: ContextRepo[] }> {
  const tip = (repo: string, branch: string) => gh.branchTip(repo, branch).catch(() => branch);
  const evaluated = [...set.members, ...set.needed];
  const mergedInto = new RepoMap<string>();
  for (const l of set.left)
    if (l.state === 'merged' && l.baseRef && !mergedInto.has(repoOfPullKey(l.key)))
      mergedInto.set(repoOfPullKey(l.key), l.baseRef);
  const targets = await Promise.all(
    evaluated.map(async (m) => {
      const repo = `${m.ref.owner}/${m.ref.repo}`;
      const url = await gh.authenticatedCloneUrl(m.cloneUrl);
      const pin = pinned?.find((p) => sameRepo(p.repo, repo));
      if (pin) return { repo, url, base: pin.base, head: pin.head, merge: false };
      return { repo, url, base: await tip(repo, m.baseRef), head: m.headSha, merge: true };
    }),
  );
  const context = await Promise.all(
    set.context.map(async (r) => {
      const info = await gh.repo(r);
      const mergedBase = mergedInto.get(r);
      // A repository pinned though no member is in it: the linked-set queue's speculative state
      // of a repository only the items ahead change (their tested commit there).
      const pin = pinned?.find((p) => sameRepo(p.repo, r));
      const ref = pin ? pin.head : mergedBase ? await tip(r, mergedBase) : info.defaultBranch;
      return { repo: r, url: await gh.authenticatedCloneUrl(info.cloneUrl), ref };
    }),
  );
  return { targets, context };
}
