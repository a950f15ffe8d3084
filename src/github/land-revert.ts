/**
 * Undoing a member that landed when a later member of its set was refused (issue 28): the base
 * branch goes back to the tree it had before. Never over a commit someone pushed after Tandem
 * landed: every move is a compare-and-swap against the landed commit.
 * - The revert commit is written on the landed commit: the previous tip's tree, parent the landed
 *   commit (what "undo this landing" is, whatever came after).
 * - Where the branch's rules allow a forced update (no `non_fast_forward` rule, no merge queue),
 *   the branch is reset to the previous tip with GraphQL `updateRefs` and `beforeOid` = the landed
 *   commit: GitHub refuses it if anything was pushed meanwhile (`resetBranch`).
 * - Else the branch is fast-forwarded to the revert commit (`force: false`: refused too if the
 *   branch moved, the revert commit's parent being the landed commit).
 * - Where neither moved it (something landed on top, or the App may not move the branch: a merge
 *   queue, a `pull_request` rule without bypass) it is offered as a revert PR from
 *   `tandem/revert/…`, which GitHub merges over whatever came after.
 */
import { z } from 'zod';
import { branchTip, moveBranch, putBranch, resetBranch, treeOf } from './branch-refs.ts';
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
    const untouched = tip === m.landedSha && !m.viaMergeQueue;
    if (untouched && !(await forceForbidden(gh, m.repo, m.baseBranch))) {
      const reset = await resetBranch(gh, m.repo, m.baseBranch, m.landedSha, m.previousTip);
      if (reset.moved) return { how: 'reset', sha: m.previousTip };
    }
    const message = `Revert ${m.pull}: the rest of its linked set could not land\n\nRestores ${m.baseBranch} to the tree of ${m.previousTip} (Tandem queue item ${itemId}).`;
    const { data } = await gh.rest.git.createCommit({
      ...repoId(m.repo),
      message,
      tree: await treeOf(gh, m.repo, m.previousTip),
      parents: [m.landedSha],
    });
    const revert = createdSchema.parse(data).sha;
    if (untouched) {
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
      body: `Tandem landed ${m.pull}, then a later member of its linked set was refused, so the set is not all in. Merging this undoes ${m.pull}'s landing (${m.landedSha.slice(0, 7)}) and keeps anything pushed to \`${m.baseBranch}\` since.`,
    });
    return { how: 'revert-pr', revertPull: `${m.repo}#${pullSchema.parse(pr.data).number}` };
  } catch (e) {
    return { how: 'failed', reason: (e as Error).message };
  }
}
