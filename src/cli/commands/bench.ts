/**
 * `tandem bench …`: benchmark mode (validate instances, score predictions, merge shards, derive
 * single-side instances, render reports). Registration only; the implementation is loaded when a
 * subcommand runs.
 */
import type { Command } from 'commander';
import type { CliContext } from '../context.ts';
import { addEngineFlags } from './eval-flags.ts';

function addBenchEngineFlags(cmd: Command): Command {
  return addEngineFlags(
    cmd,
    'configurations run at once, shared by every instance (default: from CPUs and memory)',
  )
    .option('--retries <n>', 'extra attempts after an infrastructure error', '2')
    .option('--quiet', 'no progress bar');
}

export function registerBench(program: Command, ctx: CliContext): void {
  const bench = program
    .command('bench')
    .description('benchmark mode: validate task instances and score agents’ multi-repository patches');

  addBenchEngineFlags(
    bench
      .command('run')
      .requiredOption('--instances <file>', 'instances (JSONL)')
      .requiredOption(
        '--predictions <file>',
        'predictions (JSONL, JSON list or object keyed by id), or "gold"',
      )
      .requiredOption('--run-id <id>', 'names the run folder; rerun with the same id to resume')
      .option('--runs-dir <dir>', 'where run folders go', 'runs')
      .option('--matrix <mode>', 'none (full configuration only) | leave-one-out | full', 'none')
      .option('--diagnose', 'classify unresolved predictions by running swap configurations')
      .option('--shard <i/n>', 'evaluate only share i of n of the predictions'),
  )
    .description('score predictions: per-instance report.json and the run summary (resumable)')
    .action(async (raw: Record<string, unknown>) => {
      const { benchRunCommand } = await import('../run/bench.ts');
      process.exitCode = await benchRunCommand(raw, ctx.signal);
    });

  addBenchEngineFlags(
    bench
      .command('validate')
      .argument('<instances>', 'candidate instances (JSONL)')
      .requiredOption(
        '--out <file>',
        'validated instances (JSONL); rejected ones go to rejected.jsonl beside it',
      )
      .option('--runs <n>', 'runs of the gold configuration (flaky detection)', '3')
      .option('--strict', 'reject an instance with a flaky test instead of dropping the test'),
  )
    .description('check instances: gold resolved and jointly necessary, F2P/P2P derived, flaky tests dropped')
    .action(async (instances: string, raw: Record<string, unknown>) => {
      const { benchValidateCommand } = await import('../run/bench.ts');
      process.exitCode = await benchValidateCommand(instances, raw, ctx.signal);
    });

  bench
    .command('combine')
    .alias('merge')
    .argument('<run-dirs...>', 'run folders of the shards (runs/<run-id> each)')
    .requiredOption('--instances <file>', 'the instances file the shards ran')
    .requiredOption('--out <dir>', 'the merged run folder (runs/<run-id>)')
    .description('merge shard run folders into one run and recompute the summaries')
    .action(async (dirs: string[], raw: Record<string, unknown>) => {
      const { benchMergeCommand } = await import('../run/bench.ts');
      process.exitCode = await benchMergeCommand(dirs, raw);
    });

  bench
    .command('derive')
    .argument('<kind>', 'single-side')
    .argument('<instances>', 'instances (JSONL)')
    .requiredOption('--out <file>', 'derived instances (JSONL); gold states go to <out>.repos/ beside it')
    .option('--cache-dir <dir>', 'mirrors and states (default: user cache dir)')
    .description('single-side: from each N-repository instance, N instances with the others at gold')
    .action(async (kind: string, instances: string, raw: Record<string, unknown>) => {
      const { benchDeriveCommand } = await import('../run/bench.ts');
      process.exitCode = await benchDeriveCommand(kind, instances, raw);
    });

  bench
    .command('report')
    .argument('<run-dirs...>', 'run folders (runs/<run-id>)')
    .option('--html <file>', 'one self-contained HTML file')
    .option('--markdown <file>', 'a Markdown leaderboard')
    .description('leaderboard, resolved rate by number of repositories, heatmap, per-instance matrices')
    .action(async (dirs: string[], raw: Record<string, unknown>) => {
      const { benchReportCommand } = await import('../run/bench.ts');
      process.exitCode = await benchReportCommand(dirs, raw);
    });
}
