import { InputError } from '../../core/errors.ts';
import type { Report } from '../../core/report.schema.ts';
import { loadCase } from '../../engine/case-loader.ts';
import { assertEngineReachable } from '../../engine/docker/docker-client.ts';
import { evaluate } from '../../engine/evaluate.ts';
import { buildEvaluationRequest, hostDefaults } from '../../engine/evaluation-request.ts';
import { type EvalFlags, evaluationSettings, flagName, parseEvalFlags } from '../eval-options.ts';
import { EXIT, exitCodeFor } from '../exit-codes.ts';
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
  try {
    report = await evaluate(change, {
      ...options,
      signal,
      onEvent: progress.onEvent,
      onReportedExamples: (ids) => {
        reportedExamples = ids;
      },
      caseFromUser: true,
    });
  } catch (err) {
    // A ref or patch of the case that does not resolve: named with the case file, said once.
    if (err instanceof InputError && err.field && !err.file)
      throw new InputError(`${caseFile}: ${err.message}`, caseFile, err.field);
    throw err;
  } finally {
    progress.stop();
  }
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
