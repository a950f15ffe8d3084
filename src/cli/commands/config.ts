import type { Command } from 'commander';

/** `tandem config check FILE` and `tandem init`: an organization's setup, checked before it is pushed. */
export function registerConfig(program: Command): void {
  program
    .command('config')
    .description("the organization's .github/tandem.yml")
    .command('check')
    .argument('<file>', 'a tandem.yml (YAML or JSON)')
    .option(
      '--evaluator-dir <dir>',
      'a checkout of the evaluator repository: check the suite files, hidden files, images and workflow it names',
    )
    .option('--strict', 'exit 2 on warnings too')
    .description(
      'validate a tandem.yml as the App will read it, and warn about settings that cannot work: exit 0 valid, 2 invalid (file and field named)',
    )
    .addHelpText(
      'after',
      `
Examples:
  tandem config check .github/tandem.yml
  tandem config check .github/tandem.yml --evaluator-dir ../evaluator --strict
`,
    )
    .action(async (file: string, raw: unknown) => {
      const { configCheckCommand } = await import('../run/config.ts');
      process.exitCode = await configCheckCommand(file, raw);
    });
  program
    .command('init')
    .argument('<repos...>', 'the repositories (owner/name) one suite covers')
    .requiredOption('--evaluator <repo>', 'the private repository that holds the suites and hidden tests')
    .option('--dir <dir>', 'where to write the starter files', '.')
    .option(
      '--checkouts <dir>',
      "where the repositories' checkouts are (<dir>/<name>): their toolchains decide how the suite prepares and tests them",
      '.',
    )
    .option('--suite <name>', 'name of the starter suite', 'main')
    .option('--force', 'overwrite files that exist')
    .description(
      "write a starter tandem.yml (for the organization's .github repository), a suite for the repositories' toolchains, the evaluator workflow with the Action, and a case file to try it locally",
    )
    .addHelpText(
      'after',
      `
Example:
  tandem init acme/api acme/web acme/worker --evaluator acme/evaluator --checkouts ~/src/acme --dir setup
`,
    )
    .action(async (repos: string[], raw: unknown) => {
      const { initCommand } = await import('../run/init.ts');
      process.exitCode = await initCommand(repos, raw);
    });
}
