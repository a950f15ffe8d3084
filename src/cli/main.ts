/**
 * `tandem`: evaluate a case, validate a gold change, plan and merge shards.
 * Exit codes: 0 resolved, 1 not resolved, 2 bad input, 3 infrastructure error.
 */
import { writeFile } from 'node:fs/promises';
import { Command, CommanderError } from 'commander';
import { InfraError, InputError } from '../core/errors.ts';
import { planMatrix, shardConfigurations } from '../core/matrix-plan.ts';
import { mergeReports } from '../core/merge-reports.ts';
import { loadCase } from '../engine/case-loader.ts';
import { TOOL_VERSION } from '../engine/version.ts';
import { readJsonReport, writeJsonReport } from '../report/json-report.ts';
import { renderMarkdown } from '../report/markdown-report.ts';
import { summaryTable } from '../report/summary-table.ts';
import { runEval } from './commands/eval.ts';
import { validationProblems } from './commands/validate.ts';
import { addEvalFlags, parseEvalFlags } from './eval-options.ts';
import { EXIT, exitCodeFor } from './exit-codes.ts';

const controller = new AbortController();
let interrupted = false;
process.on('SIGINT', () => {
  // First Ctrl-C stops cleanly (containers removed); a second one leaves at once.
  if (interrupted) process.exit(EXIT.interrupted);
  interrupted = true;
  process.stderr.write('\ntandem: interrupted, removing containers…\n');
  controller.abort();
});

const program = new Command('tandem')
  .description('Judge pull requests across several repositories as one change')
  .version(TOOL_VERSION)
  .exitOverride()
  .showHelpAfterError();

addEvalFlags(program.command('eval').argument('<case>', 'case file (YAML or JSON)'))
  .description('evaluate a linked change: the partial-patch matrix, graded')
  .action(async (caseFile: string, raw: unknown) => {
    const report = await runEval(caseFile, parseEvalFlags(raw), controller.signal);
    process.exitCode = report.partial ? (report.infraErrors.length ? EXIT.infra : 0) : exitCodeFor(report);
  });

addEvalFlags(program.command('validate').argument('<case>', 'case file of a gold change'), {
  reruns: '2',
  matrix: 'full',
})
  .description('check a gold change: resolved, jointly necessary, not flaky (full matrix, reruns)')
  .action(async (caseFile: string, raw: unknown) => {
    const report = await runEval(caseFile, parseEvalFlags(raw), controller.signal);
    const problems = validationProblems(report);
    if (problems.length === 0) {
      process.stdout.write(`valid: ${report.name} is resolved and jointly necessary\n`);
      process.exitCode = EXIT.resolved;
    } else {
      process.stdout.write(`invalid: ${report.name}\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
      process.exitCode = report.outcome === 'error' ? EXIT.infra : EXIT.unresolved;
    }
  });

program
  .command('plan')
  .argument('<case>', 'case file')
  .option('--matrix <mode>', 'full | leave-one-out | auto', 'auto')
  .option('--shards <n>', 'split into n shards', '1')
  .description('print the configurations (and shards) as JSON for a workflow matrix')
  .action(async (caseFile: string, raw: { matrix: string; shards: string }) => {
    const flags = parseEvalFlags({ matrix: raw.matrix });
    const shards = Number(raw.shards);
    if (!Number.isInteger(shards) || shards < 1)
      throw new InputError('option --shards: expected a whole number ≥ 1');
    const input = await loadCase(caseFile);
    const plan = planMatrix(
      input.caseFile.targets.map((t) => t.repo),
      flags.matrix,
    );
    const out = {
      mode: plan.mode,
      configurations: plan.configurations,
      shards: Array.from({ length: shards }, (_, k) => ({
        shard: `${k + 1}/${shards}`,
        configurations: shardConfigurations(plan, { index: k + 1, count: shards }).map((c) => c.id),
      })),
    };
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  });

program
  .command('merge')
  .argument('<partials...>', 'partial reports from `tandem eval --shard i/n --json`')
  .option('--json <file>', 'write the merged JSON report here')
  .option('--markdown <file>', 'write the merged Markdown report here')
  .description('combine shard reports into one report and verdict')
  .action(async (files: string[], raw: { json?: string; markdown?: string }) => {
    const partials = await Promise.all(
      files.map(async (file) => ({ file, report: await readJsonReport(file) })),
    );
    const report = mergeReports(partials);
    if (raw.json) await writeJsonReport(raw.json, report);
    if (raw.markdown) await writeFile(raw.markdown, renderMarkdown(report, { reveal: 'names' }));
    process.stderr.write(`${summaryTable(report, { color: process.stderr.isTTY === true })}\n`);
    process.exitCode = exitCodeFor(report);
  });

try {
  await program.parseAsync(process.argv);
} catch (err) {
  process.exitCode = reportError(err);
}

function reportError(err: unknown): number {
  if (err instanceof CommanderError) {
    return err.exitCode === 0 ? 0 : EXIT.badInput;
  }
  if (err instanceof InputError) {
    process.stderr.write(`tandem: ${err.message}\n`);
    return EXIT.badInput;
  }
  if (err instanceof InfraError) {
    process.stderr.write(`tandem: infrastructure error (${err.kind}): ${err.message}\n`);
    return err.kind === 'aborted' ? EXIT.interrupted : EXIT.infra;
  }
  process.stderr.write(`tandem: internal error: ${(err as Error).stack ?? String(err)}\n`);
  return EXIT.infra;
}
