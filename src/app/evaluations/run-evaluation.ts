/**
 * One evaluation of a linked set: config → set → check runs queued/in progress → suite and hidden
 * files → executor → check runs completed and the sticky comment on every member.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MatrixMode } from '../../core/matrix-mode.ts';
import { type OrgConfig, suiteFor } from '../../core/org-config.schema.ts';
import { pullKey, repoOfPullKey } from '../../core/pull-ref.ts';
import { markInProgress } from '../../github/check-runs.ts';
import type { GitHub } from '../../github/octokit.ts';
import { repoId } from '../../github/octokit.ts';
import { fetchSuite } from '../../github/suite-fetch.ts';
import { type LinkedChangeView, renderInvalidConfig } from '../../report/linked-change.ts';
import type { Executor } from '../executors/executor.ts';
import { resolveLinkedSet } from '../linking/resolve-set.ts';
import type { Store } from '../store/store.ts';
import { buildChangeSpec } from './change-spec.ts';
import type { CheckRunRegistry } from './check-run-registry.ts';
import { publicFailureMessage } from './failure-message.ts';
import type { OrgConfigCache } from './org-config-cache.ts';
import { closeRefused, failAll, type Members, publishFailure, publishReport } from './publish-evaluation.ts';
import type { PublishedReports } from './published-reports.ts';

export interface EvalItem {
  evaluationId: number;
  setKey: string;
  seed: string;
  installationId: number;
  matrix?: MatrixMode | undefined;
}

export interface EvalDeps {
  store: Store;
  checks: CheckRunRegistry;
  executor: Executor;
  auth: (installationId: number) => Promise<GitHub>;
  configs: OrgConfigCache;
  /** Keeps each published report for the footer's JSON link (absent: no link). */
  reports?: Pick<PublishedReports, 'save'>;
  log: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };
}

/**
 * Runs one evaluation from `queued` to `published` or `failed` (`store.evaluations` checks each
 * step). An abort returns with the evaluation still running and its check runs open: the caller
 * decides whether it was superseded (a newer request owns the check runs) or interrupted by a
 * shutdown (the restart resumes it).
 */
export async function runEvaluation(deps: EvalDeps, item: EvalItem, signal: AbortSignal): Promise<void> {
  const { store, checks } = deps;
  const states = store.evaluations;
  states.start(item.evaluationId);
  const gh = await deps.auth(item.installationId);
  const org = item.seed.slice(0, item.seed.indexOf('/'));

  // Check runs known for the seed so far (config errors must land somewhere visible).
  const seedPull = store.pulls.get(item.seed);
  const early: Members = [];
  // Always read fresh: the cached copy only decides whether a webhook marks a check queued.
  const cfg = await deps.configs.fresh(gh, item.installationId, org);
  if (cfg.kind !== 'ok') {
    if (seedPull && seedPull.state === 'open' && cfg.kind === 'invalid') {
      const id = await checks.ensure(gh, item.seed, seedPull.headSha, item.evaluationId);
      early.push({ key: item.seed, headSha: seedPull.headSha, checkRunId: id });
      await failAll(gh, store, early, renderInvalidConfig(org, cfg.field, cfg.message), false);
    }
    states.fail(item.evaluationId);
    return;
  }
  const config: OrgConfig = cfg.config;
  const suiteEntry = suiteFor(config, repoOfPullKey(item.seed));
  if (!suiteEntry) {
    // A check left from an earlier configuration would otherwise stay queued forever.
    await checks.closeStale(
      gh,
      item.seed,
      undefined,
      `No suite in \`tandem.yml\` covers ${repoOfPullKey(item.seed)}.`,
    );
    // Nothing to evaluate is the App's answer for this repository: it was published on the check.
    states.publish(item.evaluationId);
    return;
  }
  // The same set whichever member changed: caps cut a breadth-first walk, so start it from the
  // set's stable name (its smallest member) when that is an open PR of the same suite.
  const stable = store.pulls.get(item.setKey);
  const seed =
    stable?.state === 'open' && suiteFor(config, repoOfPullKey(item.setKey)) === suiteEntry
      ? item.setKey
      : item.seed;

  const set = await resolveLinkedSet(gh, store, item.installationId, seed, config, suiteEntry);
  if (signal.aborted) return;
  if (set.members.length === 0) {
    await checks.closeStale(gh, item.seed, undefined, 'The pull request was closed.');
    // The set is gone: the seed was closed before its evaluation started.
    states.supersede(item.evaluationId);
    return;
  }
  await closeRefused(gh, store, set, suiteEntry);
  const members: Members = [];
  for (const m of set.members) {
    const key = pullKey(m.ref);
    await checks.closeStale(gh, key, m.headSha, 'Superseded: the pull request has a newer head.');
    members.push({
      key,
      headSha: m.headSha,
      checkRunId: await checks.ensure(gh, key, m.headSha, item.evaluationId),
    });
  }
  states.setMembers(
    item.evaluationId,
    members.map(({ key, headSha }) => ({ key, headSha })),
  );
  const view: LinkedChangeView = {
    members: set.members,
    left: set.left,
    refused: set.refused,
  };
  const progress = `Evaluating ${members.length} linked pull request(s): ${members.map((m) => m.key).join(', ')}.`;
  for (const m of members)
    await markInProgress(gh, repoId(m.key.slice(0, m.key.indexOf('#'))), m.checkRunId, progress);

  const workDir = await mkdtemp(join(tmpdir(), 'tandem-suite-'));
  let hidden: string[] = [];
  try {
    const fetched = await fetchSuite(gh, repoId(config.evaluator), suiteEntry.path, workDir);
    view.mergeOrder = fetched.suite.merge_order;
    hidden = fetched.suite.tests.flatMap((t) => t.files);
    const spec = await buildChangeSpec(gh, {
      evaluationId: item.evaluationId,
      set,
      config,
      suiteEntry,
      suite: fetched,
      matrix: item.matrix,
    });
    const report = await deps.executor.run(spec, signal);
    if (signal.aborted) return;
    const jsonReportUrl = deps.reports?.save(report, config.reveal);
    if (jsonReportUrl) view.jsonReportUrl = jsonReportUrl;
    await publishReport(gh, store, members, view, report, config.reveal);
    // `/tandem merge` follows the published verdict, in the order this suite gave.
    states.recordVerdict(item.evaluationId, {
      outcome: report.outcome,
      mergeOrder: fetched.suite.merge_order ?? [],
    });
    states.publish(item.evaluationId);
    deps.log.info({ evaluation: item.evaluationId, outcome: report.outcome }, 'evaluation done');
  } catch (e) {
    if (signal.aborted) return;
    const message = publicFailureMessage(e, [workDir, ...hidden]);
    deps.log.warn({ evaluation: item.evaluationId, err: message }, 'evaluation failed');
    await publishFailure(gh, store, members, view, e, message);
    states.fail(item.evaluationId);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
