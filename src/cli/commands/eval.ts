import type { Command } from 'commander';
import type { CliContext } from '../context.ts';
import { addEvalFlags } from './eval-flags.ts';
import { COMMAND_HELP } from './help-text.ts';

export function registerEval(program: Command, ctx: CliContext): void {
  addEvalFlags(program.command('eval').argument('<case>', 'case file (YAML or JSON)'))
    .description('evaluate a linked change: the partial-patch matrix, graded')
    .addHelpText('after', COMMAND_HELP)
    .action(async (caseFile: string, raw: unknown) => {
      const { evalCommand } = await import('../run/eval.ts');
      process.exitCode = await evalCommand(caseFile, raw, ctx.signal);
    });
}
