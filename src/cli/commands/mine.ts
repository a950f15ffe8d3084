import type { Command } from 'commander';
import type { CliContext } from '../context.ts';

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Flags both sources share (the implementation checks them). */
function addCommonFlags(cmd: Command): Command {
  return cmd
    .requiredOption('--since <date>', 'read history from this date (e.g. 2024-01-01)')
    .option('--until <date>', 'and up to this date')
    .option('--out <file>', 'candidate instances (JSONL)', 'candidates.jsonl')
    .option('--screened-out <file>', 'screened sets with reasons (default: screened-out.jsonl beside --out)')
    .option('--max-repos <n>', 'screen out sets spanning more repositories', '5')
    .option('--max-files <n>', 'screen out sets changing more files', '40')
    .option('--max-lines <n>', 'screen out sets changing more lines', '1500')
    .option('--test-glob <glob>', 'test files (repeatable; replaces the per-ecosystem defaults)', collect)
    .option(
      '--window <duration>',
      'changes within this window link by head branch, dependency bump or shared symbols',
      '14d',
    )
    .option('--min-score <0..1>', 'links scoring lower do not join a set (see docs/mining.md)', '0.5')
    .option(
      '--suite-template <file>',
      'suite file (Handlebars: {{repo1}}, {{#each repos}}…) filled per candidate',
    )
    .option('--cache-dir <dir>', 'git mirrors (default: TANDEM_CACHE_DIR or the user cache dir)')
    .option(
      '--validate <suite-template>',
      'run the candidates with `tandem bench validate` (this suite template) and keep the valid ones',
    )
    .option('--validate-runs <n>', 'with --validate: runs of the gold configuration', '2')
    .option('--jobs <n>', 'with --validate: configurations run at once')
    .option('--sandbox <kind>', 'with --validate: docker, or process (development only)', 'docker');
}

export function registerMine(program: Command, ctx: CliContext): void {
  const mine = program
    .command('mine')
    .description(
      'find cross-repository tasks in history: candidate benchmark instances for `tandem bench validate`',
    );

  addCommonFlags(
    mine
      .command('git')
      .description(
        'from git history alone: commits of several repositories that reference the same issue or PR',
      )
      .option('--repo <owner/name=URL[@ref]>', 'a repository to read (repeatable)', collect),
  ).action(async (raw: Record<string, unknown>) => {
    const { mineGitCommand } = await import('../run/mine.ts');
    process.exitCode = await mineGitCommand(
      raw,
      process.env,
      (l) => process.stderr.write(`${l}\n`),
      ctx.signal,
    );
  });

  addCommonFlags(
    mine
      .command('github')
      .description('from merged pull requests of an organization (GITHUB_TOKEN)')
      .requiredOption('--org <org>', 'the organization')
      .option('--repo <owner/name>', 'only these repositories (repeatable)', collect)
      .option('--api-url <url>', 'GitHub Enterprise API root (e.g. https://ghe.example.com/api/v3)'),
  ).action(async (raw: Record<string, unknown>) => {
    const { mineGitHubCommand } = await import('../run/mine.ts');
    process.exitCode = await mineGitHubCommand(
      raw,
      process.env,
      (l) => process.stderr.write(`${l}\n`),
      ctx.signal,
    );
  });
}
