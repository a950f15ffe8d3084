/**
 * The `Tandem queue` check run on a merge-queue member's head (issue 28): created once per member,
 * then updated as the item moves (position, what it waits for, the blocking item) and completed
 * when it lands, leaves the queue or is removed. A check of its own, so it never changes the
 * `Tandem` check branch rules may require.
 */
import type { CheckRunOutput } from '../core/check-run-output.ts';
import { CHECK_RUN_TITLE_LIMIT, fitText } from '../core/github-limits.ts';
import type { RepoParts } from '../core/repo-name.ts';
import { type CheckConclusion, trimOutput } from './check-runs.ts';
import type { GitHub } from './octokit.ts';

export const QUEUE_CHECK_NAME = 'Tandem queue';

const output = (o: CheckRunOutput) => ({
  title: fitText(o.title, CHECK_RUN_TITLE_LIMIT, '…'),
  summary: trimOutput(o.summary),
});

/** Creates the check (when `id` is undefined) or updates it; returns its id. */
export async function writeQueueCheck(
  gh: GitHub,
  repo: RepoParts,
  headSha: string,
  id: number | undefined,
  out: CheckRunOutput,
  conclusion?: CheckConclusion,
): Promise<number> {
  const state = conclusion
    ? { status: 'completed' as const, conclusion, completed_at: new Date().toISOString() }
    : { status: 'in_progress' as const };
  if (id === undefined) {
    const { data } = await gh.rest.checks.create({
      ...repo,
      name: QUEUE_CHECK_NAME,
      head_sha: headSha,
      ...state,
      output: output(out),
    });
    return data.id;
  }
  await gh.rest.checks.update({ ...repo, check_run_id: id, ...state, output: output(out) });
  return id;
}
