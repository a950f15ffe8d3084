/**
 * The Action's three modes, each the same pipeline as the matching CLI command:
 * - evaluate (`tandem eval CASE [--shard i/n]`): load the change, run the engine, publish;
 * - plan (`tandem plan CASE --shards n`): the shard labels for a workflow `strategy.matrix`;
 * - merge (`tandem merge partial-*.json`): pool the shard reports, grade once, publish.
 */
import path from 'node:path';
import * as core from '@actions/core';
import { engineOptions, parseEvalFlags } from '../cli/eval-options.ts';
import { InfraError, InputError } from '../core/errors.ts';
import { planMatrix, shardConfigurations } from '../core/matrix-plan.ts';
import { mergeReports } from '../core/merge-reports.ts';
import type { Report } from '../core/report.schema.ts';
import { detectPrepareNetwork } from '../engine/docker-network.ts';
import { evaluate } from '../engine/evaluate.ts';
import type { EvaluationEvent } from '../engine/evaluate-api.ts';
import { readJsonReport } from '../report/json-report.ts';
import { loadChange, targetNames } from './change.ts';
import { createGitHubApi } from './github-client.ts';
import type { ActionInputs } from './inputs.ts';
import { appendSummary, publishReport } from './outputs.ts';
import { redactReport } from './redact.ts';
import { expandGlobs } from './report-globs.ts';
import type { ActionSettings } from './settings.ts';
import { planSummary } from './summary.ts';

export interface StepContext {
  settings: ActionSettings;
  signal?: AbortSignal;
}

type Mode<M extends ActionInputs['mode']> = Extract<ActionInputs, { mode: M }>;

function progress(e: EvaluationEvent): void {
  if (e.type === 'plan') core.info(`tandem: ${e.configurations.length} configuration(s), matrix ${e.mode}`);
  else if (e.type === 'state-ready') core.info(`  ${e.repo} ${e.state} at ${e.sha.slice(0, 12)}`);
  else if (e.type === 'configuration-done') {
    const what = e.outcome === 'error' ? 'infrastructure error' : `${e.outcome} ${e.passed}/${e.total}`;
    core.info(`  ${e.id}${e.attempt > 0 ? ` (rerun ${e.attempt})` : ''}: ${what}`);
  } else if (e.type === 'log') core.info(`  ${e.level}: ${e.message}`);
}

export async function evaluateStep(inputs: Mode<'evaluate'>, ctx: StepContext): Promise<Report> {
  const { settings } = ctx;
  if (inputs.token) core.setSecret(inputs.token);
  const api =
    inputs.source.kind === 'pull-requests' && inputs.token
      ? createGitHubApi({ token: inputs.token, baseUrl: settings.apiUrl })
      : undefined;
  const input = await loadChange(inputs.source, inputs.suite, { workspace: settings.workspace, api });
  const flags = parseEvalFlags({ matrix: inputs.matrix, reruns: inputs.reruns, cacheDir: settings.cacheDir });
  const options = engineOptions(flags, input.suite, await detectPrepareNetwork());
  let only: string[] | undefined;
  if (inputs.shard) {
    const plan = planMatrix(
      input.caseFile.targets.map((t) => t.repo),
      inputs.matrix,
    );
    only = shardConfigurations(plan, inputs.shard).map((c) => c.id);
  }
  const raw = await evaluate(input, {
    ...options,
    ...(only ? { only, shardLabel: `${inputs.shard!.index}/${inputs.shard!.count}` } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onEvent: progress,
  });
  const report = redactReport(raw, inputs.token ? [inputs.token] : []);
  // A test group with a single hidden file: its failures annotate that file in this repository.
  const files = new Map(
    input.suite.tests.map((g) => [
      g.name,
      g.files.length === 1 ? path.join(input.suiteDir, g.files[0]!) : undefined,
    ]),
  );
  await publishReport(report, {
    reportPath: inputs.report,
    workspace: settings.workspace,
    hasSummaryFile: settings.hasSummaryFile,
    fileOf: (group) => {
      const f = files.get(group);
      return f ? path.relative(settings.workspace, f) : undefined;
    },
  });
  return report;
}

export async function planStep(inputs: Mode<'plan'>, ctx: StepContext): Promise<void> {
  const { settings } = ctx;
  const plan = planMatrix(await targetNames(inputs.source, settings.workspace), inputs.matrix);
  // More shards than configurations would leave shards with nothing to run.
  const count = Math.min(inputs.shards, plan.configurations.length);
  const shards = Array.from({ length: count }, (_, k) => ({
    shard: `${k + 1}/${count}`,
    configurations: shardConfigurations(plan, { index: k + 1, count }).map((c) => c.id),
  }));
  core.setOutput('shards', JSON.stringify(shards.map((s) => s.shard)));
  core.setOutput('plan', JSON.stringify({ mode: plan.mode, configurations: plan.configurations, shards }));
  await appendSummary(planSummary(plan.mode, plan.configurations, shards), settings.hasSummaryFile);
  core.info(`tandem: ${plan.configurations.length} configuration(s) in ${count} shard(s)`);
}

export async function mergeStep(inputs: Mode<'merge'>, ctx: StepContext): Promise<Report> {
  const { workspace, hasSummaryFile } = ctx.settings;
  const files = expandGlobs(inputs.patterns, workspace);
  if (files.length === 0) {
    // The shard jobs upload these; none means none of them got that far.
    throw new InfraError(
      'engine',
      `no shard reports match ${inputs.patterns.map((p) => `"${p}"`).join(', ')}`,
    );
  }
  core.info(`tandem: merging ${files.length} shard report(s)`);
  const partials = files.map((file) => ({
    file: path.relative(workspace, file),
    report: readJsonReport(file),
  }));
  let report: Report;
  try {
    report = mergeReports(partials);
  } catch (err) {
    // A missing shard is a failed shard job: no verdict, but not the workflow author's input either.
    if (err instanceof InputError && /a shard is missing/.test(err.message))
      throw new InfraError('engine', err.message);
    throw err;
  }
  await publishReport(report, { reportPath: inputs.report, workspace, hasSummaryFile });
  return report;
}
