import type { Command } from 'commander';

const collect = (value: string, previous: string[]): string[] => [...previous, value];

import type { CliContext } from '../context.ts';
import { addEvalFlags } from './eval-flags.ts';
import { COMMAND_HELP } from './help-text.ts';

export function registerEval(program: Command, ctx: CliContext): void {
  addEvalFlags(program.command('eval').argument('[case]', 'case file (YAML or JSON); or --pr instead'))
    .description('evaluate a linked change: the partial-patch matrix, graded')
    .option(
      '--pr <ref>',
      'a pull request (owner/repo#N or its URL) to evaluate as the App would; repeat per PR',
      collect,
      [],
    )
    .option('--suite <file>', 'with --pr: the suite file (hidden files relative to it)')
    .option(
      '--config <file>',
      "with --pr: the organization's tandem.yml: its suite for the PRs and its other repositories as context",
    )
    .option('--evaluator-dir <dir>', 'with --config: a checkout of the evaluator repository (default: .)')
    .option(
      '--context <repo>',
      'with --pr: a repository without a PR (owner/repo or owner/repo@ref); repeatable',
      collect,
      [],
    )
    .addHelpText('after', COMMAND_HELP)
    .action(async (caseFile: string | undefined, raw: Record<string, unknown>, cmd: Command) => {
      const { evalCommand } = await import('../run/eval.ts');
      const matrixGiven = cmd.getOptionValueSource('matrix') !== 'default';
      process.exitCode = await evalCommand(caseFile, raw, ctx.signal, { matrixGiven });
    });
}
