import type { Command } from 'commander';

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
    .option('--window <duration>', 'same head-branch name within this window links changes', '14d')
    .option(
      '--suite-template <file>',
      'suite file (Handlebars: {{repo1}}, {{#each repos}}…) filled per candidate',
    )
    .option('--cache-dir <dir>', 'git mirrors (default: TANDEM_CACHE_DIR or the user cache dir)');
}

export function registerMine(program: Command): void {
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
    process.exitCode = await mineGitCommand(raw, process.env, (l) => process.stderr.write(`${l}\n`));
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
    process.exitCode = await mineGitHubCommand(raw, process.env, (l) => process.stderr.write(`${l}\n`));
  });
}
