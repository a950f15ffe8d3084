import { z } from 'zod';
import { scrubCredentialsDeep } from '../../core/credentials.ts';
import { InputError } from '../../core/errors.ts';
import type { Report } from '../../core/report.schema.ts';
import { loadCase } from '../../engine/case-loader.ts';
import { assertEngineReachable } from '../../engine/docker/docker-client.ts';
import { evaluate } from '../../engine/evaluate.ts';
import { buildEvaluationRequest, hostDefaults } from '../../engine/evaluation-request.ts';
import { type EvalFlags, evaluationSettings, flagName, parseEvalFlags } from '../eval-options.ts';
import { EXIT, exitCodeFor } from '../exit-codes.ts';
import { Interrupted, interruptedMessage } from '../interrupted.ts';
import { createProgress } from '../progress.ts';
// Type only: the GitHub client behind --pr is imported when --pr is given, never for a case file.
import type { PullRequestChange } from '../pull-request-change.ts';
import { checkReportTargets, printSummary, writeReports } from '../report-output.ts';

/** `tandem eval`: the exit code of the verdict; a shard's partial report exits 0 unless infrastructure failed. */
export async function evalCommand(
  caseFile: string | undefined,
  raw: Record<string, unknown>,
  signal: AbortSignal,
  opts: { matrixGiven?: boolean } = {},
): Promise<number> {
  const pullFlags = pullFlagsSchema.parse(raw);
  const usesPulls = pullFlags.pr.length > 0;
  if (usesPulls === (caseFile !== undefined))
    throw new InputError(
      usesPulls ? 'give a case file or --pr, not both' : 'give a case file, or --pr for each pull request',
      undefined,
      usesPulls ? 'pr' : 'case',
    );
  const flags = parseEvalFlags(raw);
  const source: ChangeSource = usesPulls
    ? {
        kind: 'pulls',
        load: async () => {
          const { loadPullRequestChange } = await import('../pull-request-change.ts');
          return loadPullRequestChange(pullFlags, process.env, process.cwd());
        },
      }
    : { kind: 'case', file: caseFile! };
  const report = await runEval(source, flags, signal, opts.matrixGiven ?? true);
  if (report.partial) return report.infraErrors.length ? EXIT.infra : EXIT.resolved;
  return exitCodeFor(report);
}

const pullFlagsSchema = z.object({
  pr: z.array(z.string()).default([]),
  context: z.array(z.string()).default([]),
  suite: z.string().optional(),
  config: z.string().optional(),
  evaluatorDir: z.string().optional(),
});

/** Where the change comes from: a case file, or pull requests read from GitHub as the App reads them. */
export type ChangeSource =
  | { kind: 'case'; file: string }
  | { kind: 'pulls'; load: () => Promise<PullRequestChange> };

/** Loads the case, runs the engine with progress on stderr, writes the requested reports. */
export async function runEval(
  source: ChangeSource | string,
  flags: EvalFlags,
  signal: AbortSignal,
  matrixGiven = true,
): Promise<Report> {
  checkReportTargets(flags);
  const from: ChangeSource = typeof source === 'string' ? { kind: 'case', file: source } : source;
  const pulled = from.kind === 'pulls' ? await from.load() : undefined;
  const change = pulled ? pulled.input : await loadCase((from as { file: string }).file);
  // How messages name the change: its case file, or (from --pr) the linked change's name.
  const caseFile = from.kind === 'case' ? from.file : change.caseFile.name;
  // With --config and no --matrix, the set's matrix is the one tandem.yml gives the App.
  const settings = evaluationSettings(flags);
  if (pulled?.matrix && !matrixGiven) settings.matrix = pulled.matrix;
  const { options } = await buildEvaluationRequest(change, settings, {
    host: hostDefaults(process.env),
    label: flagName,
  });
  // An engine that is down is said once, cause first, before any matrix line.
  if (flags.sandbox === 'docker') await assertEngineReachable();
  const progress = createProgress(process.stderr, flags.quiet);
  if (flags.sandbox === 'process' && !flags.quiet) {
    process.stderr.write('tandem: WARNING: --sandbox process runs PR code UNSANDBOXED on this machine\n');
  }
  let report: Report;
  let reportedExamples: string[] = [];
  // What an interrupted run leaves in the result cache: configurations that finished.
  let planned: number | undefined;
  let finished = 0;
  try {
    report = await evaluate(change, {
      ...options,
      signal,
      onEvent: (e) => {
        if (e.type === 'plan') planned = e.configurations.length;
        if (e.type === 'configuration-done' && e.attempt === 0 && e.outcome !== 'error') finished += 1;
        progress.onEvent(e);
      },
      onReportedExamples: (ids) => {
        reportedExamples = ids;
      },
      // Refs and patches a user wrote are checked before anything runs (exit 2); PRs read from
      // GitHub are the App's case, where such trouble is infrastructure.
      caseFromUser: from.kind === 'case',
    });
    // An evaluation cut short may still return; its verdict would be on a part of the matrix.
    if (signal.aborted) throw new Error('interrupted');
  } catch (err) {
    if (signal.aborted) throw new Interrupted(interruptedMessage(finished, planned, options.useResultCache));
    // A ref or patch of the case that does not resolve: named with the case file, said once.
    if (err instanceof InputError && err.field && !err.file)
      throw new InputError(`${caseFile}: ${err.message}`, caseFile, err.field);
    throw err;
  } finally {
    progress.stop();
  }
  // The engine reports clone URLs without credentials; the token is scrubbed from every other text.
  if (pulled) report = scrubCredentialsDeep(report, pulled.secrets);
  await writeReports(report, flags);
  printSummary(report, flags.quiet, reportedExamples);
  // The evaluator's own terminal: the suite field at fault, with the ids (exit 2).
  const invalid = report.invalidSuite;
  if (invalid) {
    const ids = invalid.unmatched.slice(0, 5).join(', ');
    const more = invalid.unmatched.length > 5 ? `, … (${invalid.unmatched.length} in all)` : '';
    process.stderr.write(
      `tandem: ${caseFile}: suite "${change.suite.name}": field "${invalid.fields.join('", "')}": ${invalid.message}${ids ? `: ${ids}${more}` : ''}\n`,
    );
  }
  return report;
}
