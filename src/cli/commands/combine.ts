import type { Command } from 'commander';

export function registerCombine(program: Command): void {
  program
    .command('combine')
    .alias('merge')
    .argument('<partials...>', 'partial reports from `tandem eval --shard i/n --json`')
    .option('--json <file>', 'write the merged JSON report here (- for stdout)')
    .option('--markdown <file>', 'write the merged Markdown report here (- for stdout)')
    .option('--quiet', 'only the verdict line, not the matrix (on stderr)')
    .description('combine shard reports into one report and verdict')
    .action(async (files: string[], raw: { json?: string; markdown?: string; quiet?: boolean }) => {
      const { combineCommand } = await import('../run/combine.ts');
      process.exitCode = await combineCommand(files, raw);
    });
}
