/**
 * The words of the `Tandem` check on a merge queue's merge group: the verdict of the linked
 * change with the queued merge commit as its repository's state, and every way a group can end
 * without one (nothing to gate, cancelled, a suite or infrastructure error). Each text names
 * the group first, so a reader of the queue sees which commit and PR it is about.
 */
import type { CheckRunOutput } from '../core/check-run-output.ts';
import { INFRA_TITLE, INVALID_SUITE_TITLE, NOT_A_VERDICT } from '../core/infra-wording.ts';
import { sameRepo } from '../core/repo-name.ts';
import type { Report } from '../core/report.schema.ts';
import { renderCheckRunOutput } from './check-run-output.ts';
import { type LinkedChangeView, renderSetLine, renderSetSection } from './linked-change.ts';
import { mdCode, mdFence, mdText } from './markdown-escape.ts';
import { type Reveal, shortSha } from './report-view.ts';

/** What names a merge group in a check text. */
export interface MergeGroupLabel {
  /** `owner/name` of the repository the queue belongs to. */
  repo: string;
  headSha: string;
  baseBranch: string;
  pullNumber?: number | undefined;
}

function groupLine(g: MergeGroupLabel): string {
  const pr = g.pullNumber === undefined ? '' : ` for ${mdText(`${g.repo}#${g.pullNumber}`)}`;
  return `**Merge group** ${mdCode(shortSha(g.headSha))}${pr} into ${mdCode(g.baseBranch)} of ${mdText(g.repo)}.`;
}

const HOW = (repo: string) =>
  `${mdText(repo)} is taken at the queued merge commit as it is (its base plus the queued pull requests); the other members at their heads, merged onto their bases. The full configuration gates the queue.`;

/**
 * The verdict: resolved passes the queue, anything else fails it with the verdict's reason.
 * The set line shows the queue's repository at the queued commit (what was evaluated), and the
 * footer offers no `/tandem run`: that re-runs the PRs' checks, never a merge group's.
 */
export function renderMergeGroupReport(
  g: MergeGroupLabel,
  view: LinkedChangeView,
  report: Report,
  reveal: Reveal,
): CheckRunOutput {
  const queued: LinkedChangeView = {
    ...view,
    members: view.members.map((m) =>
      sameRepo(m.ref, g.repo) && m.ref.number === g.pullNumber ? { ...m, headSha: g.headSha } : m,
    ),
  };
  const check = renderCheckRunOutput(report, { reveal, extras: { setLine: renderSetLine(queued) } });
  return {
    title: check.title,
    summary: `${groupLine(g)} ${HOW(g.repo)}\n\n${check.summary}`,
    ...(check.text ? { text: check.text } : {}),
  };
}

/** Nothing for Tandem to gate (a neutral check: the queue goes on); `reason` says why. */
export function renderMergeGroupSkipped(g: MergeGroupLabel, title: string, reason: string): CheckRunOutput {
  return { title: `Tandem: nothing to gate — ${title}`, summary: `${groupLine(g)}\n\n${reason}` };
}

/** The group went away (or the App stopped) before its verdict. */
export function renderMergeGroupCancelled(g: MergeGroupLabel, reason: string): CheckRunOutput {
  return { title: 'Tandem: cancelled', summary: `${groupLine(g)}\n\n${reason}` };
}

const REQUEUE = 'Remove the pull request from the merge queue and add it again to evaluate again.';

/**
 * No report: a suite the evaluator must fix, or an infrastructure error (never a verdict on
 * the code). `message` is already cleaned of secrets and hidden paths.
 */
export function renderMergeGroupError(
  g: MergeGroupLabel,
  view: LinkedChangeView | undefined,
  message: string,
  kind: 'infrastructure' | 'suite',
): CheckRunOutput {
  const set = view && view.members.length > 0 ? `\n\n${renderSetSection(view)}` : '';
  // Verbatim in a fence: the message may hold paths, quotes and several lines.
  const text = mdFence(message.split('\n'));
  if (kind === 'suite')
    return {
      title: INVALID_SUITE_TITLE,
      summary: `${groupLine(g)}${set}\n\n**Invalid suite** — ${NOT_A_VERDICT}:\n\n${text}\n\nThe evaluator's suite must be fixed; nothing was evaluated.`,
    };
  return {
    title: INFRA_TITLE,
    summary: `${groupLine(g)}${set}\n\n**Infrastructure error**:\n\n${text}\n\nThis is ${NOT_A_VERDICT}. ${REQUEUE}`,
  };
}
