import type { Command } from 'commander';

export function registerPlan(program: Command): void {
  program
    .command('plan')
    .argument('<case>', 'case file')
    .option('--matrix <mode>', 'full | leave-one-out | auto', 'auto')
    .option('--shards <n>', 'split into n shards', '1')
    .description('print the configurations (and shards) as JSON for a workflow matrix')
    .action(async (caseFile: string, raw: { matrix: string; shards: string }) => {
      const { planCommand } = await import('../run/plan.ts');
      process.exitCode = await planCommand(caseFile, raw);
    });
}
