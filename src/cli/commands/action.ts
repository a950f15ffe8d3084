import type { Command } from 'commander';

/** `tandem action vendor`: the GitHub Action copied into the evaluator repository. */
export function registerAction(program: Command): void {
  program
    .command('action')
    .description('the GitHub Action, vendored into the evaluator repository')
    .command('vendor')
    .option('--dir <dir>', 'a checkout of the evaluator repository', '.')
    .description(
      'write action.yml and the bundle to <dir>/.github/actions/tandem (workflows: uses: ./.github/actions/tandem)',
    )
    .addHelpText(
      'after',
      '\nExample:\n  tandem action vendor --dir ../evaluator   then commit .github/actions/tandem\n',
    )
    .action(async (raw: unknown) => {
      const { actionVendorCommand } = await import('../run/action-vendor.ts');
      process.exitCode = await actionVendorCommand(raw);
    });
}
