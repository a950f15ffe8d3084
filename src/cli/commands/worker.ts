import type { Command } from 'commander';
import type { CliContext } from '../context.ts';
// Type-only: the worker's code (pg-boss, pg) loads only when the command runs.
import type { WorkerFlags } from '../run/worker.ts';

export function registerWorker(program: Command, ctx: CliContext): void {
  program
    .command('worker')
    .option('--database-url <url>', 'the PostgreSQL database the App shares (default: DATABASE_URL)')
    .option('--host-id <id>', 'this host in the pool: its own queue, its affinity (default: the host name)')
    .option('--concurrency <n>', 'configurations run at once', '1')
    .option(
      '--sandbox <kind>',
      'docker, or process (development only: TANDEM_ALLOW_PROCESS_SANDBOX=1)',
      'docker',
    )
    .option('--cache-dir <dir>', 'mirrors, states and prepared dependencies (default: TANDEM_CACHE_DIR)')
    .option('--jobs <n>', "runs at once inside one job (a full configuration's reruns)")
    .description('take configuration jobs of `executor: workers` evaluations from PostgreSQL and run them')
    .action(async (raw: WorkerFlags) => {
      const { workerCommand } = await import('../run/worker.ts');
      process.exitCode = await workerCommand(raw, ctx.signal);
    });
}
