import type { Command } from 'commander';

export function registerMerge(program: Command): void {
  program
    .command('merge')
    .argument('<partials...>', 'partial reports from `tandem eval --shard i/n --json`')
    .option('--json <file>', 'write the merged JSON report here (- for stdout)')
    .option('--markdown <file>', 'write the merged Markdown report here (- for stdout)')
    .option('--quiet', 'only the verdict line, not the matrix (on stderr)')
    .description('combine shard reports into one report and verdict')
    .action(async (files: string[], raw: { json?: string; markdown?: string; quiet?: boolean }) => {
      const { mergeCommand } = await import('../run/merge.ts');
      process.exitCode = await mergeCommand(files, raw);
    });
}
