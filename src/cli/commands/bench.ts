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
    .description('benchmark mode: validate task instances and score agents’ multi-repository patches')
    .addHelpText(
      'after',
      '\nExamples:\n  tandem bench validate candidates.jsonl --out validated.jsonl\n  tandem bench run --instances validated.jsonl --predictions preds.jsonl --run-id r1\n  tandem bench report runs/r1 --html report.html\n',
    );
  registerBenchRun(bench, ctx);
  registerBenchValidate(bench, ctx);
  registerBenchCombine(bench);
  registerBenchDerive(bench);
  registerBenchReport(bench);
  registerBenchRegrade(bench);
  registerBenchCompare(bench);
}

/** `bench run`: scores predictions. */
function registerBenchRun(bench: Command, ctx: CliContext): void {
  addBenchEngineFlags(
    bench
      .command('run')
      .requiredOption(
        '--instances <file>',
        'instances (JSONL or JSON: Tandem, SWE-bench or Multi-SWE-bench rows)',
      )
      .option('--suites <file>', 'suite map: which suite tests the rows of which repository (and version)')
      .option(
        '--n2p-as-f2p',
        'Multi-SWE-bench rows: count n2p_tests (tests the test patch adds) as FAIL_TO_PASS; default neither list',
      )
      .requiredOption(
        '--predictions <file>',
        'predictions (JSONL, JSON list or object keyed by id), or "gold"',
      )
      .requiredOption('--run-id <id>', 'names the run folder; rerun with the same id to resume')
      .option('--runs-dir <dir>', 'where run folders go', 'runs')
      .option('--matrix <mode>', 'none (full configuration only) | leave-one-out | full', 'none')
      .option('--diagnose', 'classify unresolved predictions by running swap configurations')
      .option('--shard <i/n>', 'evaluate only share i of n of the predictions')
      .option('--attempts <k>', 'run each prediction k times: pass@1 and pass@k in the summary', '1')
      .option('--no-retry-errors', 'on a resumed run, keep predictions that ended in an error'),
  )
    .description('score predictions: per-instance report.json and the run summary (resumable)')
    .addHelpText(
      'after',
      '\nExamples:\n  tandem bench run --instances validated.jsonl --predictions preds.jsonl --run-id r1\n  tandem bench run --instances validated.jsonl --predictions gold --run-id gold --shard 1/4\n',
    )
    .action(async (raw: Record<string, unknown>) => {
      const { benchRunCommand } = await import('../run/bench.ts');
      process.exitCode = await benchRunCommand(raw, ctx.signal);
    });
}

/** `bench validate`: checks candidate instances. */
function registerBenchValidate(bench: Command, ctx: CliContext): void {
  addBenchEngineFlags(
    bench
      .command('validate')
      .argument(
        '<instances>',
        'candidate instances (JSONL or JSON: Tandem, SWE-bench or Multi-SWE-bench rows)',
      )
      .option('--suites <file>', 'suite map: which suite tests the rows of which repository (and version)')
      .option(
        '--n2p-as-f2p',
        'Multi-SWE-bench rows: count n2p_tests (tests the test patch adds) as FAIL_TO_PASS; default neither list',
      )
      .requiredOption(
        '--out <file>',
        'validated instances (JSONL); rejected ones go to <out>.rejected.jsonl beside it',
      )
      .option('--runs <n>', 'runs of the gold configuration (flaky detection)', '3')
      .option('--strict', 'reject an instance with a flaky test instead of dropping the test'),
  )
    .description('check instances: gold resolved and jointly necessary, F2P/P2P derived, flaky tests dropped')
    .addHelpText(
      'after',
      '\nExamples:\n  tandem bench validate candidates.jsonl --out validated.jsonl\n  tandem bench validate swe.jsonl --suites suites.yml --out validated.jsonl --runs 5 --strict\n',
    )
    .action(async (instances: string, raw: Record<string, unknown>) => {
      const { benchValidateCommand } = await import('../run/bench.ts');
      process.exitCode = await benchValidateCommand(instances, raw, ctx.signal);
    });
}

/** `bench combine`: merges shard run folders. */
function registerBenchCombine(bench: Command): void {
  bench
    .command('combine')
    .alias('merge')
    .argument('<run-dirs...>', 'run folders of the shards (runs/<run-id> each)')
    .requiredOption('--instances <file>', 'the instances file the shards ran')
    .requiredOption('--out <dir>', 'the merged run folder (runs/<run-id>)')
    .description('merge shard run folders into one run and recompute the summaries')
    .addHelpText(
      'after',
      '\nExample:\n  tandem bench combine shards/bench-shard-* --instances validated.jsonl --out runs/r1\n',
    )
    .action(async (dirs: string[], raw: Record<string, unknown>) => {
      const { benchMergeCommand } = await import('../run/bench.ts');
      process.exitCode = await benchMergeCommand(dirs, raw);
    });
}

/** `bench derive`: single-side instances from N-repository ones. */
function registerBenchDerive(bench: Command): void {
  bench
    .command('derive')
    .argument('<kind>', 'single-side')
    .argument('<instances>', 'instances (JSONL)')
    .requiredOption('--out <file>', 'derived instances (JSONL); gold states go to <out>.repos/ beside it')
    .option('--cache-dir <dir>', 'mirrors and states (default: user cache dir)')
    .description('single-side: from each N-repository instance, N instances with the others at gold')
    .addHelpText(
      'after',
      '\nExample:\n  tandem bench derive single-side validated.jsonl --out single-side.jsonl\n',
    )
    .action(async (kind: string, instances: string, raw: Record<string, unknown>) => {
      const { benchDeriveCommand } = await import('../run/bench.ts');
      process.exitCode = await benchDeriveCommand(kind, instances, raw);
    });
}

/** `bench report`: the leaderboard. */
function registerBenchReport(bench: Command): void {
  bench
    .command('report')
    .argument('<run-dirs...>', 'run folders (runs/<run-id>)')
    .option('--html <file>', 'one self-contained HTML file')
    .option('--markdown <file>', 'a Markdown leaderboard')
    .description('leaderboard, resolved rate by number of repositories, heatmap, per-instance matrices')
    .addHelpText(
      'after',
      '\nExample:\n  tandem bench report runs/r1 runs/r2 --html report.html --markdown report.md\n',
    )
    .action(async (dirs: string[], raw: Record<string, unknown>) => {
      const { benchReportCommand } = await import('../run/bench.ts');
      process.exitCode = await benchReportCommand(dirs, raw);
    });
}

/** `bench regrade`: grades stored results again. */
function registerBenchRegrade(bench: Command): void {
  bench
    .command('regrade')
    .argument('<run-dir>', 'a run folder (runs/<run-id>)')
    .requiredOption('--instances <file>', 'the instances with the lists to grade against now')
    .option('--suites <file>', 'suite map (the test-name mapping to grade with now)')
    .option(
      '--n2p-as-f2p',
      'Multi-SWE-bench rows: count n2p_tests (tests the test patch adds) as FAIL_TO_PASS; default neither list',
    )
    .option('--out <dir>', 'the regraded run folder (default: <run-dir>.regraded beside it)')
    .description('grade a run’s stored test results again (new lists or name mapping), without containers')
    .addHelpText(
      'after',
      '\nExample:\n  tandem bench regrade runs/r1 --instances validated-v2.jsonl --out runs/r1-v2\n',
    )
    .action(async (dir: string, raw: Record<string, unknown>) => {
      const { benchRegradeCommand } = await import('../run/bench-analyze.ts');
      process.exitCode = await benchRegradeCommand(dir, raw);
    });
}

/** `bench compare`: two runs judged against each other. */
function registerBenchCompare(bench: Command): void {
  bench
    .command('compare')
    .argument('<run-a>', 'the reference run folder')
    .argument('<run-b>', 'the run folder to judge against it')
    .option('--model-a <name>', 'the model of run A (when its folder holds several)')
    .option('--model-b <name>', 'the model of run B (when its folder holds several)')
    .option(
      '--max-regression <rate>',
      'exit 1 when B resolves at least this share of instances fewer than A (0: any fewer)',
    )
    .option('--json <file>', 'the comparison as JSON')
    .description('instances resolved by one run and not the other, exact McNemar test, regression gate')
    .addHelpText(
      'after',
      '\nExample:\n  tandem bench compare runs/baseline runs/candidate --max-regression 0.05 --json compare.json\n',
    )
    .action(async (a: string, b: string, raw: Record<string, unknown>) => {
      const { benchCompareCommand } = await import('../run/bench-analyze.ts');
      process.exitCode = await benchCompareCommand(a, b, raw);
    });
}
