import type { Report } from '../../core/report.schema.ts';
import { parseEvalFlags } from '../eval-options.ts';
import { EXIT } from '../exit-codes.ts';
import { resultStream } from '../report-output.ts';
import { runEval } from './eval.ts';

/** `tandem validate`: prints valid/invalid with the problems (on stdout unless it carries a report); the exit code. */
export async function validateCommand(caseFile: string, raw: unknown, signal: AbortSignal): Promise<number> {
  const flags = parseEvalFlags(raw);
  const report = await runEval(caseFile, flags, signal);
  const problems = validationProblems(report);
  const out = resultStream(flags);
  if (problems.length === 0) {
    out.write(`valid: ${report.name} is resolved and jointly necessary\n`);
    return EXIT.resolved;
  }
  out.write(`invalid: ${report.name}\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
  return report.invalidSuite ? EXIT.badInput : report.outcome === 'error' ? EXIT.infra : EXIT.unresolved;
}

/**
 * `tandem validate` checks a gold change: resolved and jointly necessary on the full matrix,
 * with reruns to catch flaky tests. Returns the problems found; none means valid.
 */
export function validationProblems(report: Report): string[] {
  const problems: string[] = [];
  // The evaluator's own suite is wrong: said as such, with the ids (the evaluator's terminal).
  if (report.invalidSuite) {
    const s = report.invalidSuite;
    problems.push(`${report.summary} (suite field ${s.fields.join(', ')})`);
    for (const id of s.unmatched.slice(0, 20)) problems.push(`  ${id}`);
    return problems;
  }
  if (report.outcome === 'error') {
    problems.push(`infrastructure error: ${report.summary}`);
    for (const e of report.infraErrors)
      problems.push(`  ${e.kind}${e.target ? ` (${e.target})` : ''}: ${e.message}`);
    return problems;
  }
  const full = report.configurations.find((c) => c.role === 'full');
  if (!report.verdict.resolved) {
    const failing = full?.tests.filter((t) => t.status !== 'passed').map((t) => `${t.kind} ${t.id}`) ?? [];
    problems.push(`not resolved: the full configuration fails ${failing.length} test(s)`);
    for (const f of failing.slice(0, 20)) problems.push(`  ${f}`);
  }
  for (const c of report.configurations) {
    if (c.role === 'full') continue;
    if (c.outcome === 'pass') {
      problems.push(`not jointly necessary: configuration "${c.id}" (${describe(c.applied)}) already passes`);
    } else if (c.outcome === 'error') {
      problems.push(`configuration "${c.id}" has an infrastructure error: ${c.error?.message ?? 'unknown'}`);
    }
  }
  if (report.flaky.length > 0) {
    problems.push(`${report.flaky.length} flaky test(s) across ${1 + report.matrix.reruns} runs of full:`);
    for (const f of report.flaky.slice(0, 20)) problems.push(`  ${f.id}: ${f.statuses.join(', ')}`);
  }
  if (report.tests.failToPass.length === 0)
    problems.push('no FAIL_TO_PASS tests: the change fixes nothing the suite checks');
  return problems;
}

function describe(applied: string[]): string {
  return applied.length === 0 ? 'no PR applied' : `only ${applied.join(', ')} applied`;
}
