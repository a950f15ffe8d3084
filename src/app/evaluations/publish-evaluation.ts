/**
 * What an evaluation leaves on GitHub: the completed `Tandem` check run on every member and the
 * same sticky comment on each — for a report, for a failure before any report existed, and for
 * PRs the caps kept out of the set. The words come from `report/linked-change.ts`; this module
 * decides the conclusions and where each text goes.
 */
import type { CheckRunOutput } from '../../core/check-run-output.ts';
import { InputError } from '../../core/errors.ts';
import type { EvaluationEvent } from '../../core/evaluation-event.ts';
import type { OrgSuite } from '../../core/org-config.schema.ts';
import { pageSees, setForPage } from '../../core/page-privacy.ts';
import { pullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import { RepoSet } from '../../core/repo-name.ts';
import type { Report } from '../../core/report.schema.ts';
import type { CheckConclusion } from '../../github/check-runs.ts';
import {
  type EvaluationProgress,
  type LinkedChangeView,
  renderLinkedChangeCheck,
  renderNoReport,
  renderProgress,
  renderRefused,
} from '../../report/linked-change.ts';
import type { Reveal } from '../../report/report-view.ts';
import type { ResolvedSet } from '../linking/resolve-set.ts';
import type { GitHubPort } from '../port/github-port.ts';
import { portOver, type QueueClient } from '../port/queue-client.ts';
import type { Store } from '../store/store.ts';
import type { CommentStatesTable } from '../store/store-comment-states.ts';
import { commentResult, commentResultOnAll, markCommentsMerged as markMerged } from './sticky-comments.ts';

// Where the service imports it from.
export { markCommentFinalOn } from './sticky-comments.ts';

/** The merge queue (`queue-runner.ts`, not on the port yet) marks comments merged with its client. */
export function markCommentsMerged(
  gh: QueueClient,
  keys: readonly string[],
  requestedBy: string,
  states: CommentStatesTable,
): Promise<void> {
  return markMerged(portOver(gh), keys, requestedBy, states);
}

/** The members' check runs this evaluation completes. */
export type Members = Array<{ key: string; headSha: string; checkRunId: number }>;

/** A report's check conclusion, and whether the check offers a re-run (infrastructure errors). */
function conclusionOf(report: Report): { conclusion: CheckConclusion; rerun: boolean } {
  if (report.outcome === 'resolved') return { conclusion: 'success', rerun: false };
  // The evaluator fixes an invalid suite; re-running the same one cannot help.
  if (report.invalidSuite) return { conclusion: 'failure', rerun: false };
  // A merge conflict is fixed by updating the PR (which re-evaluates); a re-run cannot help.
  const conflict = report.infraErrors.some((e) => e.kind === 'merge-conflict');
  return { conclusion: 'failure', rerun: report.outcome === 'error' && !conflict };
}

export async function failAll(
  gh: GitHubPort,
  store: Store,
  members: Members,
  output: CheckRunOutput,
  rerun: boolean,
): Promise<void> {
  for (const m of members) {
    await gh.completeCheck(repoOfPullKey(m.key), m.checkRunId, 'failure', output, { rerunAction: rerun });
    await store.checkRuns.complete(m.key, m.headSha);
  }
}

/**
 * The running check on every member follows the engine's events: configurations done of planned,
 * and the verdict as soon as the full configuration is in. One update at a time; events that
 * arrive meanwhile are folded into the next one (a 256-configuration matrix is not 256 calls).
 * `onVerdict` runs once, after the checks say the verdict (the comment's turn: one write per
 * member per evaluation, not one per configuration), on a chain of its own: a comment waiting for
 * GitHub's content budget (80 a minute, shared by every replica) must not hold back the checks'
 * conclusions, which cost nothing of it. `checksSettled` waits for the check updates only (the
 * conclusions may follow), `settled` for the comment too (the report's comment may follow).
 */
export function publishProgress(
  gh: GitHubPort,
  members: () => Members,
  log: { warn: (o: object, m: string) => void },
  signal: AbortSignal,
  onVerdict?: (progress: EvaluationProgress) => Promise<void>,
): {
  onEvent: (e: EvaluationEvent) => void;
  checksSettled: () => Promise<void>;
  settled: () => Promise<void>;
} {
  const progress: EvaluationProgress = { planned: 0, done: 0 };
  let running: Promise<void> = Promise.resolve();
  let comment: Promise<void> = Promise.resolve();
  let queued = false;
  let verdictSaid = false;
  const update = async () => {
    queued = false;
    const out = renderProgress(progress);
    for (const m of members()) {
      // Superseded or stopped: the check runs belong to a newer evaluation now.
      if (signal.aborted) return;
      await gh
        .updateCheckOutput(repoOfPullKey(m.key), m.checkRunId, out)
        .catch((err) => log.warn({ err, pull: m.key }, 'could not update the running check'));
    }
    if (!onVerdict || verdictSaid || (progress.full !== 'pass' && progress.full !== 'fail')) return;
    verdictSaid = true;
    comment = onVerdict({ ...progress }).catch((err) =>
      log.warn({ err }, 'could not say the verdict in the comment'),
    );
  };
  return {
    onEvent(e) {
      if (signal.aborted) return;
      if (e.type === 'plan') progress.planned = e.configurations.length;
      else if (e.type === 'configuration-done' && e.attempt === 0) {
        progress.done += 1;
        if (e.id === 'full') progress.full = e.outcome;
      } else return;
      if (queued) return;
      queued = true;
      running = running.then(update);
    },
    checksSettled: () => running,
    // `comment` read once the check updates are done: the last one may have started it.
    settled: () => running.then(() => comment),
  };
}

/**
 * The report on every member: check conclusion and output, then (after `afterChecks`) the sticky
 * comment. The conclusions gate merges and cost nothing of GitHub's content budget; the comments
 * may wait for it, so `afterChecks` lets the caller stop holding what the checks needed.
 */
export async function publishReport(
  gh: GitHubPort,
  store: Store,
  members: Members,
  view: LinkedChangeView,
  report: Report,
  reveal: Reveal,
  afterChecks?: () => Promise<void> | void,
  evaluationId?: number,
): Promise<void> {
  const { conclusion, rerun } = conclusionOf(report);
  const check = renderLinkedChangeCheck(view, report, reveal);
  // One comment on every member, so its footer links one check run: the first member's.
  const first = view.members[0];
  const run = members.find((m) => first && m.key === pullKey(first.ref));
  const checkRunUrl =
    first && run
      ? `${new URL(first.htmlUrl).origin}/${first.ref.owner}/${first.ref.repo}/runs/${run.checkRunId}`
      : undefined;
  for (const m of members) {
    await gh.completeCheck(repoOfPullKey(m.key), m.checkRunId, conclusion, check, { rerunAction: rerun });
    await store.checkRuns.complete(m.key, m.headSha);
  }
  await afterChecks?.();
  const shown = { ...view, ...(checkRunUrl ? { checkRunUrl } : {}) };
  const result = { kind: 'report' as const, view: shown, report, reveal };
  await commentResultOnAll(gh, store.comments, shown, result, evaluationId);
}

/**
 * No report: a suite the evaluator must fix (InputError, no Re-run), or an infrastructure error
 * (with Re-run). `message` is already cleaned of secrets and hidden paths.
 */
export async function publishFailure(
  gh: GitHubPort,
  store: Store,
  members: Members,
  view: LinkedChangeView,
  error: unknown,
  message: string,
  evaluationId?: number,
): Promise<void> {
  const cause = error instanceof InputError ? 'suite' : 'infrastructure';
  const out = renderNoReport(view, message, cause);
  await failAll(gh, store, members, out.check, cause === 'infrastructure');
  await commentResultOnAll(
    gh,
    store.comments,
    view,
    { kind: 'no-report', view, message, cause },
    evaluationId,
  );
}

/**
 * PRs the caps kept out of the set still carry the `queued` check their webhook created: they
 * are not evaluated, so say why on the check and in their comment instead of leaving it open.
 */
export async function closeRefused(
  gh: GitHubPort,
  store: Store,
  set: ResolvedSet,
  suite: OrgSuite,
  evaluationId?: number,
): Promise<void> {
  const whole: LinkedChangeView = { members: set.members, left: set.left, refused: set.refused };
  const covered = new RepoSet(suite.repos);
  for (const r of set.refused) {
    // Only the caps refuse a PR of this suite's repositories; others have sets of their own. A
    // PR that would not have joined this set (one its links merely point at, or another PR's
    // links reach) is named in this set's comment only: its own check is never failed here.
    if (!r.member || !covered.has(repoOfPullKey(r.to))) continue;
    const open = await store.checkRuns.open(r.to);
    if (open.length === 0) continue;
    // The refused PR may be less private than the set (a public PR linking back to a private
    // seed): its page shows only what it may see, never the set's private members.
    const view = setForPage(whole, pageSees(set.rankOf(r.to), set.rankOf, set.sharePrivate));
    const out = renderRefused(view, r.reason);
    for (const c of open) {
      await gh.completeCheck(repoOfPullKey(r.to), c.checkRunId, 'failure', out.check);
      await store.checkRuns.complete(r.to, c.headSha);
    }
    await commentResult(gh, store.comments, r.to, { kind: 'refused', view, reason: r.reason }, evaluationId);
  }
}
