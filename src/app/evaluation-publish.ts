/**
 * What an evaluation leaves on GitHub: the completed `Tandem` check run on every member and the
 * same sticky comment on each — for a report, for a failure before any report existed, and for
 * PRs the caps kept out of the set.
 */
import { InputError } from '../core/errors.ts';
import { parsePullKey } from '../core/link-parser.ts';
import { repoOf } from '../core/linked-set.ts';
import type { OrgSuite } from '../core/org-config.schema.ts';
import type { Report } from '../core/report.schema.ts';
import { completeCheckRun } from '../github/check-runs.ts';
import type { GitHub } from '../github/octokit.ts';
import { repoId } from '../github/octokit.ts';
import { upsertStickyComment } from '../github/sticky-comment.ts';
import {
  outcomeOf,
  type Reveal,
  renderCheck,
  renderComment,
  renderInfraFailure,
  renderSetSection,
  type SetView,
} from './publish.ts';
import type { ResolvedSet } from './resolve-set.ts';
import type { Store } from './store.ts';

/** The members' check runs this evaluation completes. */
export type Members = Array<{ key: string; headSha: string; checkRunId: number }>;

export async function failAll(
  gh: GitHub,
  store: Store,
  members: Members,
  title: string,
  summary: string,
  rerun: boolean,
): Promise<void> {
  for (const m of members) {
    await completeCheckRun(
      gh,
      repoId(m.key.slice(0, m.key.indexOf('#'))),
      m.checkRunId,
      'failure',
      { title, summary },
      { rerunAction: rerun },
    );
    store.checkRuns.complete(m.key, m.headSha);
  }
}

async function commentOnAll(gh: GitHub, view: SetView, body: string): Promise<void> {
  for (const m of view.members)
    await upsertStickyComment(gh, { owner: m.ref.owner, repo: m.ref.repo }, m.ref.number, body);
}

/** The report on every member: check conclusion and output, then the sticky comment. */
export async function publishReport(
  gh: GitHub,
  store: Store,
  members: Members,
  view: SetView,
  report: Report,
  reveal: Reveal,
): Promise<void> {
  const outcome = outcomeOf(report);
  const check = renderCheck(view, report, reveal);
  for (const m of members) {
    const repo = repoId(m.key.slice(0, m.key.indexOf('#')));
    await completeCheckRun(gh, repo, m.checkRunId, outcome.conclusion, check, {
      rerunAction: outcome.infra,
    });
    store.checkRuns.complete(m.key, m.headSha);
  }
  await commentOnAll(gh, view, renderComment(view, report, reveal));
}

/**
 * No report: a suite the evaluator must fix (InputError, no Re-run), or an infrastructure error
 * (with Re-run). `message` is already cleaned of secrets and hidden paths.
 */
export async function publishFailure(
  gh: GitHub,
  store: Store,
  members: Members,
  view: SetView,
  error: unknown,
  message: string,
): Promise<void> {
  const out = renderInfraFailure(view, message);
  if (error instanceof InputError) {
    await failAll(
      gh,
      store,
      members,
      'Tandem: invalid suite',
      out.check.summary.replace('**Infrastructure error**', '**Suite error**'),
      false,
    );
  } else {
    await failAll(gh, store, members, out.check.title, out.check.summary, true);
  }
  await commentOnAll(gh, view, out.comment);
}

/**
 * PRs the caps kept out of the set still carry the `queued` check their webhook created: they
 * are not evaluated, so say why on the check and in their comment instead of leaving it open.
 */
export async function closeRefused(
  gh: GitHub,
  store: Store,
  set: ResolvedSet,
  suite: OrgSuite,
): Promise<void> {
  const view: SetView = { members: set.members, left: set.left, refused: set.refused };
  const covered = new Set(suite.repos.map((r) => r.toLowerCase()));
  for (const r of set.refused) {
    // Only the caps refuse a PR of this suite's repositories; others have sets of their own.
    if (!covered.has(repoOf(r.to))) continue;
    const open = store.checkRuns.open(r.to);
    if (open.length === 0) continue;
    const summary = `Not evaluated: ${r.reason}. Unlink pull requests (\`/tandem unlink\`) or raise \`limits\` in \`tandem.yml\`.\n\n${renderSetSection(view)}`;
    for (const c of open) {
      await completeCheckRun(gh, repoId(repoOf(r.to)), c.checkRunId, 'failure', {
        title: 'Tandem: not evaluated (linked change over its limits)',
        summary,
      });
      store.checkRuns.complete(r.to, c.headSha);
    }
    const ref = parsePullKey(r.to);
    await upsertStickyComment(
      gh,
      { owner: ref.owner, repo: ref.repo },
      ref.number,
      `### Tandem: ⛔ not evaluated\n\n${summary}`,
    );
  }
}
