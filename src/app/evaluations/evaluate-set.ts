/**
 * The App's one evaluation corridor, shared by a PR's evaluation and a merge group's: the org's
 * `tandem.yml` read fresh → the suite covering the repository → the linked set → the suite and its
 * hidden files fetched → the change spec → the executor. What each path does with GitHub around
 * it (check runs, comments, the merge group's check) stays with the caller: `seedFor` and `onSet`
 * are its two say-sos, `reuse` may answer with a result already published for the
 * same set, heads and fingerprint (`result-fingerprint.ts`) instead of the executor, and the result
 * says where the corridor ended.
 *
 * Errors before the set is known (GitHub unreachable while reading config or resolving links)
 * propagate; from the suite fetch on they come back as `failed` with a message fit to publish.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EvaluationEvent } from '../../core/evaluation-event.ts';
import type { MatrixMode } from '../../core/matrix-mode.ts';
import { type OrgConfig, type OrgSuite, suiteFor } from '../../core/org-config.schema.ts';
import { pullKey } from '../../core/pull-ref.ts';
import type { Report } from '../../core/report.schema.ts';
import type { OrgConfigLoad } from '../../github/org-config.ts';
import type { LinkedChangeView } from '../../report/linked-change.ts';
import type { Executor } from '../executors/executor.ts';
import { type ResolvedSet, resolveLinkedSet } from '../linking/resolve-set.ts';
import type { GitHubPort } from '../port/github-port.ts';
import type { Store } from '../store/store.ts';
import { buildChangeSpec, type PinnedRepo } from './change-spec.ts';
import { publicFailureMessage } from './failure-message.ts';
import type { OrgConfigCache } from './org-config-cache.ts';
import { resultFingerprint } from './result-fingerprint.ts';

export interface EvaluateSetDeps {
  store: Store;
  executor: Executor;
  configs: OrgConfigCache;
}

/** Why a path stops short of the executor, in words for its check or comment. */
export interface SetSkip {
  title: string;
  reason: string;
}

export interface EvaluateSetRequest {
  installationId: number;
  org: string;
  /** The repository whose suite is evaluated (the PR's, or the merge queue's). */
  repo: string;
  /** The evaluation's id in the store (0: none, nothing is handed off or resumed by it). */
  evaluationId: number;
  matrix: MatrixMode | undefined;
  pinned?: readonly PinnedRepo[];
  /** Where the linked-set walk starts, or why this path does not evaluate at all. */
  seedFor: (config: OrgConfig, suite: OrgSuite) => string | SetSkip | Promise<string | SetSkip>;
  /** Once the set is known, before anything is fetched: the path's GitHub side (checks), or a stop. */
  onSet?: (set: ResolvedSet, config: OrgConfig, suite: OrgSuite) => Promise<SetSkip | undefined>;
  /** The spec's name, from the default one (the merge queue says it is a merge group). */
  name?: (name: string) => string;
  /** The engine's events while it runs (the running check's progress). */
  onEvent?: (event: EvaluationEvent) => void;
  /** A published result of this set on these heads with this fingerprint, to republish instead of running. */
  reuse?: (set: ResolvedSet, fingerprint: string) => Promise<ReusedResult | undefined>;
}

export interface ReusedResult {
  report: Report;
  /** The evaluation that carries it, and when the executor produced it. */
  fromEvaluation: number;
  evaluatedAt: number;
}

export type SetOutcome =
  | { kind: 'config'; load: Exclude<OrgConfigLoad, { kind: 'ok' }> }
  | { kind: 'no-suite'; config: OrgConfig }
  | { kind: 'skipped'; skip: SetSkip; config: OrgConfig }
  | { kind: 'aborted' }
  | ({
      kind: 'done';
      report: Report;
      mergeOrder: string[];
      scrub: string[];
      fingerprint: string;
      reused?: ReusedResult;
    } & Evaluated)
  | ({ kind: 'failed'; error: unknown; message: string } & Evaluated);

/** `scrub`: what a message about the run must not show (host paths, hidden file names). */
interface Evaluated {
  config: OrgConfig;
  set: ResolvedSet;
  view: LinkedChangeView;
}

export async function evaluateSet(
  deps: EvaluateSetDeps,
  gh: GitHubPort,
  req: EvaluateSetRequest,
  signal: AbortSignal,
): Promise<SetOutcome> {
  const load = await deps.configs.fresh(gh, req.installationId, req.org);
  if (load.kind !== 'ok') return { kind: 'config', load };
  const config = load.config;
  const suiteEntry = suiteFor(config, req.repo);
  if (!suiteEntry) return { kind: 'no-suite', config };
  const seed = await req.seedFor(config, suiteEntry);
  if (typeof seed !== 'string') return { kind: 'skipped', skip: seed, config };

  const set = await resolveLinkedSet(gh, deps.store, req.installationId, seed, config, suiteEntry);
  if (signal.aborted) return { kind: 'aborted' };
  const stop = await req.onSet?.(set, config, suiteEntry);
  if (stop) return { kind: 'skipped', skip: stop, config };
  if (signal.aborted) return { kind: 'aborted' };

  const view: LinkedChangeView = {
    members: set.members,
    left: set.left,
    refused: set.refused,
    suitePath: suiteEntry.path,
  };
  const evaluated: Evaluated = { config, set, view };
  const workDir = await mkdtemp(join(tmpdir(), 'tandem-suite-'));
  let hidden: string[] = [];
  try {
    const fetched = await gh.fetchSuite(config.evaluator, suiteEntry.path, workDir);
    view.mergeOrder = fetched.suite.merge_order;
    hidden = fetched.suite.tests.flatMap((t) => t.files);
    const spec = await buildChangeSpec(gh, {
      evaluationId: req.evaluationId,
      set,
      config,
      suiteEntry,
      suite: fetched,
      matrix: req.matrix,
      ...(req.pinned ? { pinned: req.pinned } : {}),
    });
    if (req.name) spec.name = req.name(spec.name);
    if (signal.aborted) return { kind: 'aborted' };
    const scrub = [workDir, ...hidden];
    const mergeOrder = fetched.suite.merge_order ?? [];
    const fingerprint = await resultFingerprint({
      config,
      suite: fetched.suite,
      matrix: req.matrix,
      hiddenDir: workDir,
      needed: set.needed.map((m) => `${pullKey(m.ref)}@${m.headSha}`),
      bases: basesOf(set, spec.targets),
    });
    const reused = await req.reuse?.(set, fingerprint);
    if (reused)
      return { kind: 'done', report: reused.report, mergeOrder, scrub, fingerprint, reused, ...evaluated };
    const report = await deps.executor.run(spec, signal, req.onEvent);
    if (signal.aborted) return { kind: 'aborted' };
    return { kind: 'done', report, mergeOrder, scrub, fingerprint, ...evaluated };
  } catch (error) {
    if (signal.aborted) return { kind: 'aborted' };
    // Paths of the host and of hidden files never reach a comment.
    const message = publicFailureMessage(error, [workDir, ...hidden]);
    return { kind: 'failed', error, message, ...evaluated };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * The base each evaluated PR was merged onto, as the spec holds it (`change-spec.ts` lists members
 * then needed PRs, in that order): its branch and that branch's tip, for the reuse fingerprint.
 * Where GitHub did not give the tip (the spec fell back to the branch name), the base SHA the PR
 * itself reports stands in for it.
 */
function basesOf(set: ResolvedSet, targets: ReadonlyArray<{ base: string }>): string[] {
  return [...set.members, ...set.needed].map((m, i) => {
    const tip = targets[i]?.base ?? '';
    const sha = /^[0-9a-f]{40,64}$/i.test(tip) ? tip : m.baseSha;
    return `${pullKey(m.ref)} ${m.baseRef}@${sha}`;
  });
}
