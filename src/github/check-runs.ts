/**
 * The `Tandem` check run on a member's head SHA: queued → in_progress → completed. Output is
 * trimmed to GitHub's limits (core/github-limits.ts: title 255 characters, summary and text
 * 65,535 bytes each).
 */
import type { CheckRunOutput } from '../core/check-run-output.ts';
import { CHECK_RUN_OUTPUT_LIMIT, CHECK_RUN_TITLE_LIMIT, fitText } from '../core/github-limits.ts';
import type { RepoParts } from '../core/repo-name.ts';
import type { GitHub } from './octokit.ts';

export const CHECK_NAME = 'Tandem';
// Re-exported for the App until it imports the wording from core/infra-wording.ts.
export { INFRA_TITLE } from '../core/infra-wording.ts';

/** `neutral`: nothing to judge (a merge group no suite covers); GitHub lets a required check pass on it. */
export type CheckConclusion = 'success' | 'failure' | 'cancelled' | 'neutral';

const TRIM_NOTICE = '\n\n… trimmed to fit GitHub’s size limit; the full report is in the comment.';

export function trimOutput(s: string): string {
  return fitText(s, CHECK_RUN_OUTPUT_LIMIT, TRIM_NOTICE);
}

function output(o: CheckRunOutput) {
  return {
    title: fitText(o.title, CHECK_RUN_TITLE_LIMIT, '…'),
    summary: trimOutput(o.summary),
    ...(o.text ? { text: trimOutput(o.text) } : {}),
  };
}

export async function createQueuedCheckRun(
  gh: GitHub,
  repo: RepoParts,
  headSha: string,
  externalId: string,
  summary: string,
): Promise<number> {
  const { data } = await gh.rest.checks.create({
    ...repo,
    name: CHECK_NAME,
    head_sha: headSha,
    status: 'queued',
    external_id: externalId,
    output: output({ title: 'Tandem: queued', summary }),
  });
  return data.id;
}

const OPEN_TITLES = { queued: 'Tandem: queued', in_progress: 'Tandem: evaluating' } as const;

/** Moves a check back to `queued` (a new evaluation of the same head) or on to `in_progress`. */
async function moveCheckRun(
  gh: GitHub,
  repo: RepoParts,
  id: number,
  status: keyof typeof OPEN_TITLES,
  summary: string,
): Promise<void> {
  await gh.rest.checks.update({
    ...repo,
    check_run_id: id,
    status,
    ...(status === 'in_progress' ? { started_at: new Date().toISOString() } : {}),
    output: output({ title: OPEN_TITLES[status], summary }),
  });
}

export const markInProgress = (gh: GitHub, repo: RepoParts, id: number, summary: string) =>
  moveCheckRun(gh, repo, id, 'in_progress', summary);

export const reopenCheckRun = (gh: GitHub, repo: RepoParts, id: number, summary: string) =>
  moveCheckRun(gh, repo, id, 'queued', summary);

/** A running check's text only (its status and start time stay): progress while it runs. */
export async function updateCheckOutput(
  gh: GitHub,
  repo: RepoParts,
  id: number,
  out: { title: string; summary: string },
): Promise<void> {
  await gh.rest.checks.update({ ...repo, check_run_id: id, output: output(out) });
}

export async function completeCheckRun(
  gh: GitHub,
  repo: RepoParts,
  id: number,
  conclusion: CheckConclusion,
  out: CheckRunOutput,
  opts: { rerunAction?: boolean } = {},
): Promise<void> {
  await gh.rest.checks.update({
    ...repo,
    check_run_id: id,
    status: 'completed',
    conclusion,
    completed_at: new Date().toISOString(),
    output: output(out),
    ...(opts.rerunAction
      ? {
          actions: [
            { label: 'Re-run', identifier: 'rerun', description: 'Evaluate the linked change again' },
          ],
        }
      : {}),
  });
}
