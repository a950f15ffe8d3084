/**
 * One evaluation of a linked set: config → set → check runs queued/in progress → suite and hidden
 * files → executor → check runs completed and the sticky comment on every member.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BranchTarget, ContextRepo } from '../core/case.schema.ts';
import { InputError } from '../core/errors.ts';
import { parsePullKey, pullKey } from '../core/link-parser.ts';
import { repoOf } from '../core/linked-set.ts';
import type { MatrixMode } from '../core/matrix-plan.ts';
import { type OrgConfig, type OrgSuite, suiteFor } from '../core/org-config.schema.ts';
import { completeCheckRun, markInProgress } from '../github/check-runs.ts';
import type { GitHub } from '../github/octokit.ts';
import { repoId } from '../github/octokit.ts';
import { loadOrgConfig } from '../github/org-config.ts';
import { authenticatedCloneUrl } from '../github/permissions.ts';
import { branchTip, getRepo } from '../github/pull-requests.ts';
import { upsertStickyComment } from '../github/sticky-comment.ts';
import { fetchSuite } from '../github/suite-fetch.ts';
import type { CheckRunRegistry } from './check-run-registry.ts';
import type { Executor, LinkedChangeSpec } from './executor.ts';
import {
  outcomeOf,
  renderCheck,
  renderComment,
  renderInfraFailure,
  renderSetSection,
  type SetView,
} from './publish.ts';
import { redactSecrets, scrubHidden } from './redact.ts';
import { type ResolvedSet, resolveLinkedSet } from './resolve-set.ts';
import type { Store } from './store.ts';

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
  log: { info: (o: object, m: string) => void; warn: (o: object, m: string) => void };
  onConfig?: (installationId: number, config: Awaited<ReturnType<typeof loadOrgConfig>>) => void;
}

type Members = Array<{ key: string; headSha: string; checkRunId: number }>;

async function failAll(
  gh: GitHub,
  deps: EvalDeps,
  members: Members,
  title: string,
  summary: string,
  rerun: boolean,
) {
  for (const m of members) {
    await completeCheckRun(
      gh,
      repoId(m.key.slice(0, m.key.indexOf('#'))),
      m.checkRunId,
      'failure',
      { title, summary },
      { rerunAction: rerun },
    );
    deps.store.completeCheckRun(m.key, m.headSha);
  }
}

/** Runs one evaluation; an abort leaves check runs open for the evaluation that supersedes it. */
export async function runEvaluation(deps: EvalDeps, item: EvalItem, signal: AbortSignal): Promise<void> {
  const { store, checks } = deps;
  const gh = await deps.auth(item.installationId);
  const org = item.seed.slice(0, item.seed.indexOf('/'));
  store.setEvaluationState(item.evaluationId, 'running');

  // Check runs known for the seed so far (config errors must land somewhere visible).
  const seedPull = store.getPull(item.seed);
  const early: Members = [];
  const cfg = await loadOrgConfig(gh, org);
  deps.onConfig?.(item.installationId, cfg);
  if (cfg.kind !== 'ok') {
    if (seedPull && seedPull.state === 'open' && cfg.kind === 'invalid') {
      const id = await checks.ensure(gh, item.seed, seedPull.headSha, item.evaluationId);
      early.push({ key: item.seed, headSha: seedPull.headSha, checkRunId: id });
      const summary = `\`.github/tandem.yml\` in \`${org}/.github\` is invalid at \`${cfg.field}\`: ${cfg.message}`;
      await failAll(gh, deps, early, `Tandem: invalid configuration (${cfg.field})`, summary, false);
    }
    store.setEvaluationState(item.evaluationId, 'failed');
    return;
  }
  const config: OrgConfig = cfg.config;
  const suiteEntry = suiteFor(config, repoOf(item.seed));
  if (!suiteEntry) {
    // A check left from an earlier configuration would otherwise stay queued forever.
    await checks.closeStale(
      gh,
      item.seed,
      undefined,
      `No suite in \`tandem.yml\` covers ${repoOf(item.seed)}.`,
    );
    store.setEvaluationState(item.evaluationId, 'done');
    return;
  }
  // The same set whichever member changed: caps cut a breadth-first walk, so start it from the
  // set's stable name (its smallest member) when that is an open PR of the same suite.
  const stable = store.getPull(item.setKey);
  const seed =
    stable?.state === 'open' && suiteFor(config, repoOf(item.setKey)) === suiteEntry
      ? item.setKey
      : item.seed;

  const set = await resolveLinkedSet(gh, store, item.installationId, seed, config, suiteEntry);
  if (signal.aborted) return;
  if (set.members.length === 0) {
    await checks.closeStale(gh, item.seed, undefined, 'The pull request was closed.');
    store.setEvaluationState(item.evaluationId, 'done');
    return;
  }
  await closeRefused(gh, deps, set, suiteEntry);
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
  store.setEvaluationState(
    item.evaluationId,
    'running',
    members.map(({ key, headSha }) => ({ key, headSha })),
  );
  const view: SetView = {
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
    const spec: LinkedChangeSpec = {
      name: `linked change ${members.map((m) => m.key).join(' ')}`,
      suite: fetched.suite,
      suiteDir: fetched.suiteDir,
      matrix: item.matrix ?? config.matrix,
      ...(await workspaceOf(gh, set, suiteEntry)),
    };
    const report = await deps.executor.run(spec, signal);
    if (signal.aborted) return;
    const outcome = outcomeOf(report);
    const check = renderCheck(view, report, config.reveal);
    for (const m of members) {
      const repo = repoId(m.key.slice(0, m.key.indexOf('#')));
      await completeCheckRun(gh, repo, m.checkRunId, outcome.conclusion, check, {
        rerunAction: outcome.infra,
      });
      store.completeCheckRun(m.key, m.headSha);
    }
    const comment = renderComment(view, report, config.reveal);
    for (const m of set.members)
      await upsertStickyComment(gh, { owner: m.ref.owner, repo: m.ref.repo }, m.ref.number, comment);
    store.setEvaluationState(item.evaluationId, 'done');
    deps.log.info({ evaluation: item.evaluationId, outcome: report.outcome }, 'evaluation done');
  } catch (e) {
    if (signal.aborted) return;
    const raw = e instanceof InputError ? e.message : `evaluation failed: ${(e as Error).message}`;
    const message = scrubHidden(redactSecrets(raw), workDir, hidden);
    deps.log.warn({ evaluation: item.evaluationId, err: message }, 'evaluation failed');
    const out = renderInfraFailure(view, message);
    if (e instanceof InputError) {
      await failAll(
        gh,
        deps,
        members,
        'Tandem: invalid suite',
        out.check.summary.replace('**Infrastructure error**', '**Suite error**'),
        false,
      );
    } else {
      await failAll(gh, deps, members, out.check.title, out.check.summary, true);
    }
    for (const m of set.members)
      await upsertStickyComment(gh, { owner: m.ref.owner, repo: m.ref.repo }, m.ref.number, out.comment);
    store.setEvaluationState(item.evaluationId, 'failed');
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * Members are merge targets (head onto the current tip of their base branch); the suite's other
 * repositories are context at their default branch, except a repository a member was merged
 * into, which is taken at its new base: the tip of the branch the PR went into.
 */
async function workspaceOf(
  gh: GitHub,
  set: ResolvedSet,
  suite: OrgSuite,
): Promise<{ targets: BranchTarget[]; context: ContextRepo[] }> {
  const tip = (repo: string, branch: string) => branchTip(gh, repoId(repo), branch).catch(() => branch);
  const memberRepos = new Set(set.members.map((m) => `${m.ref.owner}/${m.ref.repo}`.toLowerCase()));
  const mergedInto = new Map<string, string>();
  for (const l of set.left)
    if (l.state === 'merged' && l.baseRef && !mergedInto.has(repoOf(l.key)))
      mergedInto.set(repoOf(l.key), l.baseRef);
  const targets = await Promise.all(
    set.members.map(async (m) => {
      const repo = `${m.ref.owner}/${m.ref.repo}`;
      const url = await authenticatedCloneUrl(gh, m.cloneUrl);
      return { repo, url, base: await tip(repo, m.baseRef), head: m.headSha, merge: true };
    }),
  );
  const context = await Promise.all(
    suite.repos
      .filter((r) => !memberRepos.has(r.toLowerCase()))
      .map(async (r) => {
        const info = await getRepo(gh, repoId(r));
        const mergedBase = mergedInto.get(r.toLowerCase());
        const ref = mergedBase ? await tip(r, mergedBase) : info.defaultBranch;
        return { repo: r, url: await authenticatedCloneUrl(gh, info.cloneUrl), ref };
      }),
  );
  return { targets, context };
}

/**
 * PRs the caps kept out of the set still carry the `queued` check their webhook created: they
 * are not evaluated, so say why on the check and in their comment instead of leaving it open.
 */
async function closeRefused(gh: GitHub, deps: EvalDeps, set: ResolvedSet, suite: OrgSuite): Promise<void> {
  const view: SetView = { members: set.members, left: set.left, refused: set.refused };
  const covered = new Set(suite.repos.map((r) => r.toLowerCase()));
  for (const r of set.refused) {
    // Only the caps refuse a PR of this suite's repositories; others have sets of their own.
    if (!covered.has(repoOf(r.to))) continue;
    const open = deps.store.openCheckRuns(r.to);
    if (open.length === 0) continue;
    const summary = `Not evaluated: ${r.reason}. Unlink pull requests (\`/tandem unlink\`) or raise \`limits\` in \`tandem.yml\`.\n\n${renderSetSection(view)}`;
    for (const c of open) {
      await completeCheckRun(gh, repoId(repoOf(r.to)), c.checkRunId, 'failure', {
        title: 'Tandem: not evaluated (linked change over its limits)',
        summary,
      });
      deps.store.completeCheckRun(r.to, c.headSha);
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
