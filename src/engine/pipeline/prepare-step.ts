/**
 * Pipeline step 2, prepare: the suite's hidden files staged (and the filter that keeps them out
 * of the report), every repository state fetched into a mirror and materialised once
 * (git/workspace-states.ts), wiring names checked, the image resolved, which base states are on
 * a trusted branch (prepare/base-trust.ts), and the base states' dependency prepares started
 * (state-preparer.ts). Head prepares start when a configuration asks.
 */
import path from 'node:path';
import { infraInfo } from '../../core/errors.ts';
import type { EvaluationEvent } from '../../core/evaluation-event.ts';
import type { LeakFilter } from '../../core/leak-filter.ts';
import type { InfraErrorInfo } from '../../core/run.schema.ts';
import type { EvaluationInput, EvaluationOptions } from '../evaluate-api.ts';
import { caseMistake } from '../git/case-mistakes.ts';
import { MirrorCache } from '../git/git-mirror.ts';
import { type MaterializedRepo, materializeRepos } from '../git/workspace-states.ts';
import { stageHiddenFiles, suiteHash } from '../hidden/hidden-files.ts';
import { suiteLeakFilter } from '../hidden/hidden-texts.ts';
import { isTrustedBase } from '../prepare/base-trust.ts';
import type { Sandbox, SandboxLimits } from '../sandbox/sandbox.ts';
import { checkWiringNames } from '../wiring/wiring-check.ts';
import { type StatePreparer, statePreparer } from './state-preparer.ts';

export interface PrepareStepContext {
  sandbox: Sandbox;
  limits: SandboxLimits;
  cacheDir: string;
  /** This evaluation's private folder (hidden files are staged under it). */
  runDir: string;
  options: Pick<EvaluationOptions, 'prepareNetwork' | 'caBundle' | 'signal' | 'caseFromUser'>;
  slots: <T>(fn: () => Promise<T>) => Promise<T>;
  emit: (e: EvaluationEvent) => void;
}

export interface PreparedEvaluation {
  repos: { targets: MaterializedRepo[]; context: MaterializedRepo[] };
  hiddenRoot: string;
  /** Test group name → its staged hidden folder. */
  hiddenDirs: Map<string, string>;
  /** Everything in the report may leave the evaluator: no hidden path or line gets through. */
  leakFilter: LeakFilter;
  suiteHash: string;
  imageId: string;
  imageError?: InfraErrorInfo;
  states: StatePreparer;
}

export async function prepareStep(
  input: EvaluationInput,
  ctx: PrepareStepContext,
): Promise<PreparedEvaluation> {
  const { caseFile, suite } = input;
  const hiddenRoot = path.join(ctx.runDir, 'hidden');
  const hiddenDirs = await stageHiddenFiles(suite, input.suiteDir, hiddenRoot);
  const leakFilter = await suiteLeakFilter(suite, input.suiteDir);
  const hash = await suiteHash(suite, input.suiteDir);

  const mirrors = new MirrorCache(ctx.cacheDir);
  const repos = await materializeRepos(caseFile, input.caseDir, mirrors, ctx.cacheDir, (repo, state, sha) =>
    ctx.emit({ type: 'state-ready', repo, state, sha }),
  );
  if (ctx.options.caseFromUser) {
    const mistake = caseMistake(caseFile, repos);
    if (mistake) throw mistake;
  }
  await checkWiringNames(
    suite,
    [...repos.targets, ...repos.context].map((r) => ({ repo: r.repo, name: r.name, baseDir: r.base?.dir })),
  );
  ctx.emit({
    type: 'resolved-refs',
    repos: repos.targets.map((r) => ({ repo: r.repo, base: r.report.base.sha, head: r.report.head?.sha })),
  });

  let imageId = '';
  let imageError: InfraErrorInfo | undefined;
  try {
    imageId = await ctx.sandbox.imageId(suite.image);
  } catch (err) {
    imageError = infraInfo(err);
  }

  const states = statePreparer({
    suite,
    repos,
    sharedBases: await sharedBases(input, repos, mirrors),
    imageId,
    imageError,
    sandbox: ctx.sandbox,
    limits: ctx.limits,
    cacheDir: ctx.cacheDir,
    prepareNetwork: ctx.options.prepareNetwork,
    caBundle: ctx.options.caBundle,
    signal: ctx.options.signal,
    slots: ctx.slots,
    emit: ctx.emit,
  });
  await states.startBases();
  return {
    repos,
    hiddenRoot,
    hiddenDirs,
    leakFilter,
    suiteHash: hash,
    imageId,
    ...(imageError ? { imageError } : {}),
    states,
  };
}

/** The repositories whose base state may share prepared folders: its commit is on a trusted branch. */
async function sharedBases(
  input: EvaluationInput,
  repos: PreparedEvaluation['repos'],
  mirrors: MirrorCache,
): Promise<Set<string>> {
  const { caseFile, suite } = input;
  const urls = new Map<string, string>([
    ...caseFile.targets.map((t): [string, string] => [t.repo, t.url]),
    ...caseFile.context.map((c): [string, string] => [c.repo, c.url]),
  ]);
  const shared = new Set<string>();
  await Promise.all(
    [...repos.targets, ...repos.context].map(async (r) => {
      const spec = suite.prepare[r.repo] ?? suite.prepare[r.name];
      const url = urls.get(r.repo);
      if (!r.base || !spec || url === undefined) return;
      const mirror = await mirrors.ensure(url);
      if (await isTrustedBase(mirror, r.base.commitSha, spec.trusted_bases)) shared.add(r.repo);
    }),
  );
  return shared;
}
