/**
 * The linked change the step evaluates, as the engine's input: a case file from the evaluator
 * repository, or a case built from `pull-requests` (the targets), `context` (repositories without
 * a PR) and the `suite` input. Paths are relative to the evaluator repository checkout
 * (`$GITHUB_WORKSPACE`).
 */
import path from 'node:path';
import { branchTargetSchema } from '../core/case.schema.ts';
import { InputError } from '../core/errors.ts';
import { loadCase, loadSuiteFile } from '../engine/case-loader.ts';
import type { EvaluationInput } from '../engine/evaluate-api.ts';
import { contextRepos } from '../github/context-repos.ts';
import { linkedChangeName, pullRequestTargets } from '../github/pull-request-case.ts';
import type { GitHubApi } from '../github/token-client.ts';
import type { ChangeSource } from './inputs.ts';

export interface ChangeContext {
  workspace: string;
  /** Reads the pull requests; needed only for `pull-requests`. */
  api?: GitHubApi;
}

export async function loadChange(
  source: ChangeSource,
  suite: string | undefined,
  ctx: ChangeContext,
): Promise<EvaluationInput> {
  if (source.kind === 'case') return loadCase(path.resolve(ctx.workspace, source.file));
  if (!suite) throw new InputError('input "suite": required with "pull-requests"', undefined, 'suite');
  if (!ctx.api) throw new InputError('input "token": required with "pull-requests"', undefined, 'token');
  const suitePath = path.resolve(ctx.workspace, suite);
  const loaded = await loadSuiteFile(suitePath).catch((err: unknown) => {
    throw err instanceof InputError
      ? new InputError(`input "suite": ${err.message}`, err.file, 'suite')
      : err;
  });
  const api = ctx.api;
  const targets = (await pullRequestTargets(api, source.pulls)).map((t) => branchTargetSchema.parse(t));
  const context = await contextRepos(
    api,
    source.context,
    targets.map((t) => t.repo),
  );
  return {
    caseFile: { name: linkedChangeName(source.pulls), targets, context },
    suite: loaded,
    suiteDir: path.dirname(suitePath),
    caseDir: ctx.workspace,
  };
}

/** Target names without reading anything remote: what a plan needs. */
export async function targetNames(source: ChangeSource, workspace: string): Promise<string[]> {
  if (source.kind === 'pull-requests') return source.pulls.map((p) => `${p.owner}/${p.repo}`);
  const input = await loadCase(path.resolve(workspace, source.file));
  return input.caseFile.targets.map((t) => t.repo);
}
