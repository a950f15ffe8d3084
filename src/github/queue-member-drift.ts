/**
 * The last check before a queue item lands (issue 28): every member is still the PR that was
 * tested — open, on the same head, aimed at the same base branch. A webhook that never arrived
 * (a push, a retarget, a close) must not let Tandem land a tested commit for a PR that no longer
 * wants it, nor leave a pushed head looking landed: such a set is refused before anything moves.
 * GitHub not answering is thrown (infrastructure trouble, the landing is tried again).
 */
import { z } from 'zod';
import { parsePullKey, repoOfPullKey } from '../core/pull-ref.ts';
import { type GitHub, repoId } from './octokit.ts';

const pullSchema = z.object({
  state: z.string(),
  merged: z.boolean().nullish(),
  head: z.object({ sha: z.string() }),
  base: z.object({ ref: z.string() }),
});

export interface QueuedMember {
  pull: string;
  headSha: string;
  baseBranch: string;
}

/** The first member that drifted and why the set may not land as tested, or undefined. */
export async function memberDrift(
  gh: GitHub,
  members: readonly QueuedMember[],
): Promise<{ pull: string; reason: string } | undefined> {
  for (const m of members) {
    const { data } = await gh.rest.pulls.get({
      ...repoId(repoOfPullKey(m.pull)),
      pull_number: parsePullKey(m.pull).number,
    });
    const pr = pullSchema.parse(data);
    // A member merged meanwhile is this landing retried after a lost answer: the branch decides.
    if (pr.merged) continue;
    const why =
      pr.state !== 'open'
        ? `${m.pull} was closed after it was queued`
        : pr.base.ref !== m.baseBranch
          ? `${m.pull} now targets ${pr.base.ref}, not ${m.baseBranch} where it was tested`
          : pr.head.sha !== m.headSha
            ? `${m.pull}'s head moved to ${pr.head.sha.slice(0, 7)} after it was tested (comment \`/tandem merge\` again)`
            : undefined;
    if (why) return { pull: m.pull, reason: why };
  }
  return undefined;
}
