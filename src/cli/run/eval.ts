import type { Report } from '../../core/report.schema.ts';
import { loadCase } from '../../engine/case-loader.ts';
import { assertEngineReachable } from '../../engine/docker/docker-client.ts';
import { evaluate } from '../../engine/evaluate.ts';
import { buildEvaluationRequest, hostDefaults } from '../../engine/evaluation-request.ts';
import { type EvalFlags, evaluationSettings, flagName, parseEvalFlags } from '../eval-options.ts';
import { EXIT, exitCodeFor } from '../exit-codes.ts';
import { Interrupted, interruptedMessage } from '../interrupted.ts';
import { createProgress } from '../progress.ts';
import { checkReportTargets, printSummary, writeReports } from '../report-output.ts';

/** `tandem eval`: the exit code of the verdict; a shard's partial report exits 0 unless infrastructure failed. */
export async function evalCommand(caseFile: string, raw: unknown, signal: AbortSignal): Promise<number> {
  const report = await runEval(caseFile, parseEvalFlags(raw), signal);
  if (report.partial) return report.infraErrors.length ? EXIT.infra : EXIT.resolved;
  return exitCodeFor(report);
}

/** Loads the case, runs the engine with progress on stderr, writes the requested reports. */
export async function runEval(caseFile: string, flags: EvalFlags, signal: AbortSignal): Promise<Report> {
  checkReportTargets(flags);
  const change = await loadCase(caseFile);
  const { options } = await buildEvaluationRequest(change, evaluationSettings(flags), {
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
    });
    // An evaluation cut short may still return; its verdict would be on a part of the matrix.
    if (signal.aborted) throw new Error('interrupted');
  } catch (err) {
    if (signal.aborted) throw new Interrupted(interruptedMessage(finished, planned, options.useResultCache));
    throw err;
  } finally {
    progress.stop();
  }
  await writeReports(report, flags);
  printSummary(report, flags.quiet, reportedExamples);
  return report;
}
