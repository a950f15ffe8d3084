import type { Command } from 'commander';

// Defaults as in core/set-queue DEFAULT_QUEUE_OPTIONS (not imported: commands/ files load no core module).
export function registerQueue(program: Command): void {
  const queue = program.command('queue').description('the linked-set merge queue');
  queue
    .command('simulate')
    .argument('<trace>', 'a trace of linked sets, JSON Lines (see docs/cli.md)')
    .option('--speculation <n>', 'evaluations running at once (queue.speculation)', '4')
    .option('--retries <n>', 're-runs of a flaky or infrastructure result (queue.retries)', '2')
    .option('--json', 'the figures as JSON on stdout')
    .description('replay a trace through the queue logic on a fake clock, beside a serial baseline')
    .action(async (trace: string, raw: { speculation: string; retries: string; json?: boolean }) => {
      const { queueSimulateCommand } = await import('../run/queue-simulate.ts');
      process.exitCode = await queueSimulateCommand(trace, raw);
    });
}
