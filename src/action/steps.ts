/**
 * The Action's three modes, each the same pipeline as the matching CLI command:
 * - evaluate (`tandem eval CASE [--shard i/n]`): load the change, run the engine, publish;
 * - plan (`tandem plan CASE --shards n`): the shard labels for a workflow `strategy.matrix`;
 * - merge (`tandem merge partial-*.json`): pool the shard reports, grade once, publish.
 */
import path from 'node:path';
import * as core from '@actions/core';
import { scrubCredentialsDeep } from '../core/credentials.ts';
import { InfraError, InputError } from '../core/errors.ts';
import type { EvaluationEvent } from '../core/evaluation-event.ts';
import { planMatrix } from '../core/matrix-plan.ts';
import { progressLine } from '../core/progress-lines.ts';
import type { Report } from '../core/report.schema.ts';
import { combineShardReports, MISSING_SHARD_FIELD } from '../core/shard-combine.ts';
import { formatShard, planShards } from '../core/shard-plan.ts';
import { evaluate } from '../engine/evaluate.ts';
import { buildEvaluationRequest } from '../engine/evaluation-request.ts';
import { createGitHubApi } from '../github/token-client.ts';
import { readJsonReport } from '../report/json-report.ts';
import { loadChange, targetNames } from './change.ts';
import type { ActionInputs } from './inputs.ts';
import { appendSummary, publishReport } from './outputs.ts';
import { expandGlobs } from './report-globs.ts';
import type { ActionSettings } from './settings.ts';
import { planSummary } from './summary.ts';

export interface StepContext {
  settings: ActionSettings;
  signal?: AbortSignal;
}

type Mode<M extends ActionInputs['mode']> = Extract<ActionInputs, { mode: M }>;

function progress(e: EvaluationEvent): void {
  const line = progressLine(e);
  if (line !== undefined) core.info(line);
}

export async function evaluateStep(inputs: Mode<'evaluate'>, ctx: StepContext): Promise<Report> {
  const { settings } = ctx;
  const api =
    inputs.source.kind === 'pull-requests' && inputs.token
      ? createGitHubApi({ token: inputs.token, baseUrl: settings.apiUrl, onWait: (line) => core.info(line) })
      : undefined;
  const input = await loadChange(inputs.source, inputs.suite, { workspace: settings.workspace, api });
  const request = await buildEvaluationRequest(
    input,
    {
      matrix: inputs.matrix,
      reruns: inputs.reruns,
      cacheDir: settings.cacheDir,
      ...(inputs.shard ? { shard: formatShard(inputs.shard) } : {}),
    },
    { host: settings.host, label: (name) => `input "${name}"` },
  );
  const raw = await evaluate(request.change, {
    ...request.options,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onEvent: progress,
  });
  // The engine reports clone URLs without credentials; the token is scrubbed from every other text.
  const report = scrubCredentialsDeep(raw, inputs.token ? [inputs.token] : []);
  // A test group with a single hidden file: its failures annotate that file in this repository.
  const files = new Map(
    input.suite.tests.map((g) => [
      g.name,
      g.files.length === 1 ? path.join(input.suiteDir, g.files[0]!) : undefined,
    ]),
  );
  await publishReport(report, {
    reportPath: inputs.report,
    reveal: inputs.reveal,
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
  const plan = planShards(
    planMatrix(await targetNames(inputs.source, settings.workspace), inputs.matrix),
    inputs.shards,
  );
  const { shards } = plan;
  core.setOutput('shards', JSON.stringify(shards.map((s) => s.shard)));
  core.setOutput('plan', JSON.stringify({ mode: plan.mode, configurations: plan.configurations, shards }));
  await appendSummary(planSummary(plan.mode, plan.configurations, shards), settings.hasSummaryFile);
  core.info(`tandem: ${plan.configurations.length} configuration(s) in ${shards.length} shard(s)`);
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
    report = combineShardReports(partials);
  } catch (err) {
    // A missing shard is a failed shard job: no verdict, but not the workflow author's input either.
    if (err instanceof InputError && err.field === MISSING_SHARD_FIELD)
      throw new InfraError('engine', err.message);
    throw err;
  }
  await publishReport(report, {
    reportPath: inputs.report,
    reveal: inputs.reveal,
    workspace,
    hasSummaryFile,
  });
  return report;
}
