import type { Command } from 'commander';
import type { CliContext } from '../context.ts';
import { addEvalFlags } from './eval-flags.ts';
import { COMMAND_HELP } from './help-text.ts';

export function registerValidate(program: Command, ctx: CliContext): void {
  addEvalFlags(program.command('validate').argument('<case>', 'case file of a gold change'), {
    reruns: '2',
    matrix: 'full',
  })
    .description('check a gold change: resolved, jointly necessary, not flaky (full matrix, reruns)')
    .addHelpText('after', COMMAND_HELP)
    .action(async (caseFile: string, raw: unknown) => {
      const { validateCommand } = await import('../run/validate.ts');
      process.exitCode = await validateCommand(caseFile, raw, ctx.signal);
    });
}
