/**
 * `tandem eval --pr …`: the linked change the App would evaluate, rebuilt on this machine from
 * GitHub. Members are read with the token in `GITHUB_TOKEN` (or `GH_TOKEN`) from `GITHUB_API_URL`
 * (default api.github.com) and merged onto the current tip of their base branch, as the App does
 * (`app/evaluations/change-spec.ts`). With `--config tandem.yml`, the suite covering the PRs is
 * taken from it (its file under `--evaluator-dir`, a checkout of the evaluator repository) and
 * its other repositories join as context at their default branch, as the App adds them; `--suite`
 * and `--context` say the same by hand.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type ContextRef, parseContextRef } from '../core/context-ref.ts';
import { InputError } from '../core/errors.ts';
import type { MatrixMode } from '../core/matrix-mode.ts';
import { type OrgSuite, suiteFor } from '../core/org-config.schema.ts';
import { type PullRef, parsePullRef, samePull } from '../core/pull-ref.ts';
import { RepoSet, repoFullName, sameRepo, splitRepo } from '../core/repo-name.ts';
import { loadSuiteFile } from '../engine/case-loader.ts';
import type { EvaluationInput } from '../engine/evaluate-api.ts';
import { contextRepos } from '../github/context-repos.ts';
import type { InputNames } from '../github/input-reads.ts';
import { parseOrgConfig } from '../github/org-config.ts';
import { linkedChangeName, pullRequestTargets } from '../github/pull-request-case.ts';
import { createGitHubApi } from '../github/token-client.ts';

export interface PullFlags {
  pr: string[];
  context: string[];
  suite?: string | undefined;
  config?: string | undefined;
  evaluatorDir?: string | undefined;
}

export interface PullRequestChange {
  input: EvaluationInput;
  /** Secrets to scrub from every text the run writes (the token). */
  secrets: string[];
  /** `tandem.yml`'s matrix, when a config was given (the App's default for the set). */
  matrix?: MatrixMode;
}

const NAMES: InputNames = { pulls: 'option --pr', context: 'option --context', token: 'GITHUB_TOKEN' };

export function parsePullFlags(flags: PullFlags): { pulls: PullRef[]; context: ContextRef[] } {
  const pulls: PullRef[] = [];
  for (const text of flags.pr) {
    const ref = parsePullRef(text.trim());
    if (!ref)
      throw new InputError(
        `option --pr: expected "owner/repo#N" or a PR URL, got "${text}"`,
        undefined,
        'pr',
      );
    if (!pulls.some((p) => samePull(p, ref))) pulls.push(ref);
  }
  const context: ContextRef[] = [];
  for (const text of flags.context) {
    const ref = parseContextRef(text.trim());
    if (!ref)
      throw new InputError(
        `option --context: expected "owner/repo" or "owner/repo@ref", got "${text}"`,
        undefined,
        'context',
      );
    context.push(ref);
  }
  return { pulls, context };
}

async function readConfig(file: string) {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(
      `option --config: ${file}: ${code === 'ENOENT' ? 'no such file' : String(e)}`,
      file,
      'config',
    );
  }
  const load = parseOrgConfig(text);
  if (load.kind !== 'ok')
    throw new InputError(
      `option --config: ${file}: field "${load.kind === 'invalid' ? load.field : '(root)'}": ${load.kind === 'invalid' ? load.message : 'empty'}`,
      file,
      'config',
    );
  return load.config;
}

/** The suite entry covering every PR (the App evaluates a set under the suite of its members). */
function coveringSuite(config: Awaited<ReturnType<typeof readConfig>>, pulls: readonly PullRef[]): OrgSuite {
  const first = pulls[0]!;
  const entry = suiteFor(config, repoFullName(first));
  if (!entry)
    throw new InputError(`option --pr: no suite in --config covers ${repoFullName(first)}`, undefined, 'pr');
  for (const p of pulls)
    if (!entry.repos.some((r) => sameRepo(r, repoFullName(p))))
      throw new InputError(
        `option --pr: ${p.owner}/${p.repo}#${p.number} is not covered by suite "${entry.name}", which covers ${repoFullName(first)}`,
        undefined,
        'pr',
      );
  return entry;
}

export async function loadPullRequestChange(
  flags: PullFlags,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<PullRequestChange> {
  const { pulls, context } = parsePullFlags(flags);
  const token = env.GITHUB_TOKEN || env.GH_TOKEN;
  if (!token)
    throw new InputError(
      'GITHUB_TOKEN: required with --pr (a token that reads the PRs and their repositories)',
      undefined,
      'GITHUB_TOKEN',
    );
  const config = flags.config ? await readConfig(path.resolve(cwd, flags.config)) : undefined;
  const entry = config ? coveringSuite(config, pulls) : undefined;
  const suiteFile = flags.suite
    ? path.resolve(cwd, flags.suite)
    : entry
      ? path.resolve(cwd, flags.evaluatorDir ?? '.', entry.path)
      : undefined;
  if (!suiteFile)
    throw new InputError(
      'option --suite: required with --pr (or --config naming the suite)',
      undefined,
      'suite',
    );
  const suite = await loadSuiteFile(suiteFile);
  // The suite's other repositories, at their default branch, unless --context names them.
  const named = new RepoSet([...pulls.map(repoFullName), ...context.map(repoFullName)]);
  const implied: ContextRef[] = (entry?.repos ?? [])
    .filter((r) => !named.has(r))
    .map((r) => splitRepo(r)!)
    .map((p) => ({ owner: p.owner, repo: p.repo }));
  const api = createGitHubApi({
    token,
    baseUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/$/, ''),
    onWait: (line) => process.stderr.write(`${line}\n`),
  });
  const targets = await pullRequestTargets(api, pulls, { baseAt: 'tip', names: NAMES });
  const ctx = await contextRepos(
    api,
    [...context, ...implied],
    targets.map((t) => t.repo),
    NAMES,
  );
  return {
    input: {
      caseFile: { name: linkedChangeName(pulls), targets, context: ctx },
      suite,
      suiteDir: path.dirname(suiteFile),
      caseDir: cwd,
    },
    secrets: [token],
    ...(config ? { matrix: config.matrix } : {}),
  };
}
