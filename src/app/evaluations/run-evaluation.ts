/**
 * One evaluation of a linked set: config → set → check runs queued/in progress → suite and hidden
 * files → executor (`evaluate-set.ts`, the corridor it shares with the merge queue) → check runs
 * completed and the sticky comment on every member. A set whose members, heads and fingerprint
 * equal its last published evaluation's republishes that result (and says so) instead of running
 * the executor again, unless the request is `fresh` (`/tandem run --fresh`).
 */
import type { MatrixMode } from '../../core/matrix-mode.ts';
import { type OrgConfig, type OrgSuite, suiteFor } from '../../core/org-config.schema.ts';
import { pullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import { type LinkedChangeView, renderInvalidConfig } from '../../report/linked-change.ts';
import type { Executor } from '../executors/executor.ts';
import type { ResolvedSet } from '../linking/resolve-set.ts';
import type { AppMetrics } from '../ops/app-metrics.ts';
import type { GitHubPort, GitHubPorts } from '../port/github-port.ts';
import { publishing } from '../publishing-signal.ts';
import type { Store } from '../store/store.ts';
import type { CheckRunRegistry } from './check-run-registry.ts';
import { evaluateSet, type SetOutcome, type SetSkip } from './evaluate-set.ts';
import { EvaluationTrail } from './evaluation-trail.ts';
import { publicFailureMessage } from './failure-message.ts';
import type { OrgConfigCache } from './org-config-cache.ts';
import {
  closeRefused,
  failAll,
  type Members,
  publishFailure,
  publishProgress,
  publishReport,
} from './publish-evaluation.ts';
import type { PublishedReports } from './published-reports.ts';
import { reusable } from './reusable-result.ts';
import { commentVerdictFirst, markCommentsStale } from './sticky-comments.ts';

export interface EvalItem {
  evaluationId: number;
  setKey: string;
  seed: string;
  installationId: number;
  matrix?: MatrixMode | undefined;
  /** Run the executor even when a published result fits (`/tandem run --fresh`). */
  fresh?: boolean;
}

export interface EvalDeps {
  store: Store;
  checks: CheckRunRegistry;
  executor: Executor;
  /** The GitHub port of each installation. */
  github: GitHubPorts;
  configs: OrgConfigCache;
  /** Keeps each published report for the footer's JSON link (absent: no link). */
  reports?: Pick<PublishedReports, 'save'>;
  log: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };
  /** The evaluation latency histogram (`evaluation-trail.ts`). */
  metrics?: Pick<AppMetrics, 'evaluationEnded'>;
}

/** What every phase of one evaluation shares. */
interface Run {
  deps: EvalDeps;
  item: EvalItem;
  /** The installation's GitHub port. */
  gh: GitHubPort;
  org: string;
  signal: AbortSignal;
  /** The members' check runs, filled in once the set is known. */
  members: Members;
  /** The set as evaluated, for the comments (set with the members). */
  evaluated?: LinkedChangeView;
  /** Its log lines and latency. */
  trail: EvaluationTrail;
}

/**
 * Runs one evaluation from `queued` to `published` or `failed` (`store.evaluations` checks each
 * step); `releaseSlot` is called once its check conclusions are in (its comments may still wait).
 * An abort returns with the evaluation still running and its check runs open: the caller
 * decides whether it was superseded (a newer request owns the check runs) or interrupted by a
 * shutdown (the restart resumes it).
 */
export async function runEvaluation(
  deps: EvalDeps,
  item: EvalItem,
  signal: AbortSignal,
  releaseSlot: () => void,
): Promise<void> {
  const { store } = deps;
  await store.evaluations.start(item.evaluationId);
  const trail = new EvaluationTrail(deps.log, item, deps.metrics);
  try {
    await evaluate(deps, item, signal, releaseSlot, trail);
  } catch (e) {
    trail.end('crashed', { err: e instanceof Error ? e.message : String(e) });
    throw e;
  }
  // An abort (superseded, or a shutdown the restart resumes) returns without an answer.
  trail.end('aborted');
}

async function evaluate(
  deps: EvalDeps,
  item: EvalItem,
  signal: AbortSignal,
  releaseSlot: () => void,
  trail: EvaluationTrail,
): Promise<void> {
  const { store } = deps;
  const gh = await deps.github(item.installationId);
  const run: Run = {
    deps,
    item,
    gh,
    org: item.seed.slice(0, item.seed.indexOf('/')),
    signal,
    members: [],
    trail,
  };
  // The running checks follow the engine: configurations done of planned, the verdict first;
  // the comments say the verdict too, once, as soon as the full configuration is in.
  const live = publishProgress(
    gh,
    () => run.members,
    deps.log,
    signal,
    async (progress) => {
      const view = run.evaluated;
      if (view)
        await publishing.run(signal, () =>
          commentVerdictFirst(gh, store.comments, view, progress, signal, item.evaluationId),
        );
    },
  );
  const outcome = await evaluateSet(
    deps,
    gh,
    {
      installationId: item.installationId,
      org: run.org,
      repo: repoOfPullKey(item.seed),
      evaluationId: item.evaluationId,
      matrix: item.matrix,
      onEvent: live.onEvent,
      ...(item.fresh
        ? {}
        : { reuse: (set: ResolvedSet, fp: string) => reusable(store, item.setKey, set, fp) }),
      seedFor: (config, suiteEntry) => stableSeed(store, item, config, suiteEntry),
      onSet: (set, _config, suiteEntry) => openSet(run, set, suiteEntry),
    },
    signal,
  );
  // No progress update may land after (and so reopen) a completed check; the verdict's comment
  // may still wait for GitHub's content budget, but no other comment may overtake it.
  await (outcome.kind === 'done' ? live.checksSettled() : live.settled());
  switch (outcome.kind) {
    case 'config':
      await configFailed(run, outcome.load);
      return trail.end(outcome.load.kind === 'invalid' ? 'invalid-config' : 'no-config');
    case 'no-suite':
      await noSuite(run);
      return trail.end('no-suite');
    case 'skipped':
      return trail.end('closed', { reason: outcome.skip.reason });
    case 'aborted':
      return;
    case 'failed':
      return failed(run, outcome.view, outcome.error, outcome.message);
    case 'done':
      return publishDone(run, outcome, releaseSlot, live.settled);
  }
}

/**
 * The same set whichever member changed: caps cut a breadth-first walk, so start it from the
 * set's stable name (its smallest member) when that is an open PR of the same suite.
 */
async function stableSeed(
  store: Store,
  item: EvalItem,
  config: OrgConfig,
  suiteEntry: OrgSuite,
): Promise<string> {
  const stable = await store.pulls.get(item.setKey);
  return stable?.state === 'open' && suiteFor(config, repoOfPullKey(item.setKey)) === suiteEntry
    ? item.setKey
    : item.seed;
}

/**
 * The set is known: PRs the caps kept out are told, each member gets its check in progress
 * (stale ones closed), the members are recorded, and earlier comments are marked stale. A set
 * with no members (the seed closed before its evaluation started) ends the evaluation.
 */
async function openSet(run: Run, set: ResolvedSet, suiteEntry: OrgSuite): Promise<SetSkip | undefined> {
  const { gh, item, members } = run;
  const { store, checks } = run.deps;
  if (set.members.length === 0) {
    await checks.closeStale(gh, item.seed, undefined, 'The pull request was closed.');
    await store.evaluations.supersede(item.evaluationId);
    return { title: 'closed', reason: 'The pull request was closed.' };
  }
  await closeRefused(gh, store, set, suiteEntry, item.evaluationId);
  for (const m of set.members) {
    const key = pullKey(m.ref);
    await checks.closeStale(gh, key, m.headSha, 'Superseded: the pull request has a newer head.');
    members.push({
      key,
      headSha: m.headSha,
      checkRunId: await checks.ensure(gh, key, m.headSha, item.evaluationId),
    });
  }
  run.trail.members(members);
  await store.evaluations.setMembers(
    item.evaluationId,
    // The base branch too: `/tandem merge` refuses a member retargeted since.
    set.members.map((m) => ({ key: pullKey(m.ref), headSha: m.headSha, baseRef: m.baseRef })),
  );
  const progress = `Evaluating ${members.length} linked pull request(s): ${members.map((m) => m.key).join(', ')}.`;
  for (const m of members) await gh.markInProgress(repoOfPullKey(m.key), m.checkRunId, progress);
  run.evaluated = { members: set.members, left: set.left, refused: set.refused };
  // An earlier verdict on the members stays in sight, marked as the one for the old heads.
  await markCommentsStale(gh, store.comments, run.evaluated, item.evaluationId);
  return undefined;
}

/** An invalid `tandem.yml` must land somewhere visible: the seed's check run. */
async function configFailed(run: Run, load: Extract<SetOutcome, { kind: 'config' }>['load']): Promise<void> {
  const { gh, item } = run;
  const { store, checks } = run.deps;
  const seedPull = await store.pulls.get(item.seed);
  if (seedPull && seedPull.state === 'open' && load.kind === 'invalid') {
    const id = await checks.ensure(gh, item.seed, seedPull.headSha, item.evaluationId);
    const early: Members = [{ key: item.seed, headSha: seedPull.headSha, checkRunId: id }];
    await failAll(gh, store, early, renderInvalidConfig(run.org, load.field, load.message), false);
  }
  await store.evaluations.fail(item.evaluationId);
}

/** No suite covers the seed's repository: that is the App's answer there, said on its check. */
async function noSuite(run: Run): Promise<void> {
  const { seed } = run.item;
  // A check left from an earlier configuration would otherwise stay queued forever.
  await run.deps.checks.closeStale(
    run.gh,
    seed,
    undefined,
    `No suite in \`tandem.yml\` covers ${repoOfPullKey(seed)}.`,
  );
  await run.deps.store.evaluations.publish(run.item.evaluationId);
}

/**
 * A report (new or reused): the conclusions on every member's check (then the slot goes to the
 * next evaluation), the result kept for reuse, then the comments. Publishing that fails still
 * gives the members an answer.
 */
async function publishDone(
  run: Run,
  outcome: Extract<SetOutcome, { kind: 'done' }>,
  releaseSlot: () => void,
  verdictCommented: () => Promise<void>,
): Promise<void> {
  const { gh, item, members, signal, deps } = run;
  const states = deps.store.evaluations;
  const { report, view, config, reused } = outcome;
  if (reused) view.reusedFrom = new Date(reused.evaluatedAt).toISOString();
  try {
    const jsonReportUrl = deps.reports?.save(report, config.reveal);
    if (jsonReportUrl) view.jsonReportUrl = jsonReportUrl;
    // A comment superseded while it waits for GitHub's content budget is never posted. Once
    // the conclusions are in, the verdict is recorded (`/tandem merge` follows it, in the
    // order this suite gave, once published) and the next evaluation may run while these
    // comments wait.
    await publishing.run(signal, () =>
      publishReport(
        gh,
        deps.store,
        members,
        view,
        report,
        config.reveal,
        async () => {
          await states.recordVerdict(item.evaluationId, {
            outcome: report.outcome,
            mergeOrder: outcome.mergeOrder,
          });
          releaseSlot();
          // The report's comment after the verdict's (which may still wait for the budget).
          await verdictCommented();
        },
        item.evaluationId,
      ),
    );
    // Kept before `published`: the next re-run of these heads finds it on the last published row.
    if (reused) await states.carryResult(item.evaluationId, reused.fromEvaluation);
    else
      await states.keepResult(item.evaluationId, {
        fingerprint: outcome.fingerprint,
        report: JSON.stringify(report),
      });
    await states.publish(item.evaluationId);
    run.trail.end(report.outcome, { reused: reused !== undefined });
  } catch (e) {
    // Superseded while publishing: the newer evaluation owns the checks and the comment.
    if (signal.aborted) return;
    // Publishing failed (GitHub refused the comment): the members still get an answer, after
    // the verdict's comment (which never rejects) so the failure's is the last word.
    await verdictCommented();
    return failed(run, view, e, publicFailureMessage(e, outcome.scrub));
  }
}

/** No report: the failure on every member's check and comment. */
async function failed(run: Run, view: LinkedChangeView, error: unknown, message: string): Promise<void> {
  await publishFailure(run.gh, run.deps.store, run.members, view, error, message, run.item.evaluationId);
  await run.deps.store.evaluations.fail(run.item.evaluationId);
  run.trail.end('infrastructure-error', { err: message });
}
