/**
 * Undoing a member that landed when a later member of its set was refused (issue 28): the base
 * branch goes back to the tip it had before. Where nothing has landed on top and the branch's
 * rules allow a forced update (no `non_fast_forward` rule, no merge queue), the branch is reset
 * (`force: true`, only after reading that its tip is still what Tandem landed). Otherwise a revert
 * commit — the previous tip's tree, on top of the current tip — is written; the branch is
 * fast-forwarded to it where the App may move it, and where it may not (a merge queue, a
 * `pull_request` rule without bypass) it is offered as a revert PR from `tandem/revert/…`.
 */
import { z } from 'zod';
import { branchTip, moveBranch, putBranch, treeOf } from './branch-refs.ts';
import { type GitHub, httpStatus, repoId } from './octokit.ts';

export interface LandedMember {
  pull: string;
  repo: string;
  baseBranch: string;
  /** The tip before Tandem landed this member. */
  previousTip: string;
  /** What the branch was moved to (the tested commit, or GitHub's merge queue's merge commit). */
  landedSha: string;
  /** The branch merges only through GitHub's merge queue. */
  viaMergeQueue: boolean;
}

export type RevertResult =
  | { how: 'reset' | 'revert-commit'; sha: string }
  | { how: 'revert-pr'; revertPull: string }
  | { how: 'failed'; reason: string };

const rulesSchema = z.array(z.object({ type: z.string() }).loose());
const createdSchema = z.object({ sha: z.string() });
const pullSchema = z.object({ number: z.number() });

/** Whether the branch's rulesets forbid a forced update (or any direct one: a merge queue). */
async function forceForbidden(gh: GitHub, repo: string, branch: string): Promise<boolean> {
  try {
    const { data } = await gh.rest.repos.getBranchRules({ ...repoId(repo), branch, per_page: 100 });
    return rulesSchema.parse(data).some((r) => r.type === 'non_fast_forward' || r.type === 'merge_queue');
  } catch (e) {
    if (httpStatus(e) === 404) return false;
    throw e;
  }
}

export async function revertLanded(gh: GitHub, m: LandedMember, itemId: string): Promise<RevertResult> {
  try {
    const tip = await branchTip(gh, m.repo, m.baseBranch);
    if (!tip) return { how: 'failed', reason: `${m.repo} branch ${m.baseBranch} is gone` };
    if (tip === m.landedSha && !m.viaMergeQueue && !(await forceForbidden(gh, m.repo, m.baseBranch))) {
      const reset = await moveBranch(gh, m.repo, m.baseBranch, m.previousTip, true);
      if (reset.moved) return { how: 'reset', sha: m.previousTip };
    }
    const message = `Revert ${m.pull}: the rest of its linked set could not land\n\nRestores ${m.baseBranch} to the tree of ${m.previousTip} (Tandem queue item ${itemId}).`;
    const { data } = await gh.rest.git.createCommit({
      ...repoId(m.repo),
      message,
      tree: await treeOf(gh, m.repo, m.previousTip),
      parents: [tip],
    });
    const revert = createdSchema.parse(data).sha;
    if (!m.viaMergeQueue) {
      const forward = await moveBranch(gh, m.repo, m.baseBranch, revert, false);
      if (forward.moved) return { how: 'revert-commit', sha: revert };
    }
    const branch = `tandem/revert/${itemId.replace(/[^\w.-]+/g, '-')}/${m.repo.slice(m.repo.indexOf('/') + 1)}`;
    await putBranch(gh, m.repo, branch, revert);
    const pr = await gh.rest.pulls.create({
      ...repoId(m.repo),
      title: `Revert ${m.pull} (its linked set could not land)`,
      head: branch,
      base: m.baseBranch,
      body: `Tandem landed ${m.pull}, then a later member of its linked set was refused, so the set is not all in. Merging this restores \`${m.baseBranch}\` to its tree before ${m.pull} landed (${m.previousTip.slice(0, 7)}).`,
    });
    return { how: 'revert-pr', revertPull: `${m.repo}#${pullSchema.parse(pr.data).number}` };
  } catch (e) {
    return { how: 'failed', reason: (e as Error).message };
  }
}
