/**
 * The flags of `eval` and `validate`, declared for commander only. Parsing and validation live
 * with the implementation (`../eval-options.ts`), loaded when a command runs, so `--help` and
 * `--version` load neither zod nor the engine.
 */
import { type Command, Option } from 'commander';

/** The engine flags of every evaluating command (`eval`, `validate`, `bench …`): eval-options.ts `engineFlagShape`. */
export function addEngineFlags(
  cmd: Command,
  jobsHelp = 'configurations run at once (default: from CPUs and memory)',
): Command {
  return (
    cmd
      .option('--jobs <n>', jobsHelp)
      .option('--cache-dir <dir>', 'mirrors, states, dependencies and results (default: user cache dir)')
      .option(
        '--work-dir <dir>',
        'where configuration workspaces are assembled (default: a tmpfs if present)',
      )
      .option('--no-cache', 'ignore the result cache (states and mirrors are still reused)')
      .option('--sandbox <kind>', 'docker, or process (unsandboxed, development only)', 'docker')
      // Retired: prepare reaches only the suite's `network.allow` hosts, through Tandem's egress
      // proxy, whatever this says. Accepted (hidden) so existing scripts keep working.
      .addOption(new Option('--prepare-network <mode>').hideHelp())
      .option('--ca-bundle <file>', 'CA bundle handed to prepare containers (default: the host bundle)')
  );
}

export function addEvalFlags(cmd: Command, defaults: { reruns?: string; matrix?: string } = {}): Command {
  cmd
    .option(
      '--matrix <mode>',
      'full | leave-one-out | auto (full up to 4 targets)',
      defaults.matrix ?? 'auto',
    )
    .option('--reruns <k>', 'extra runs of the full configuration (flaky detection)', defaults.reruns ?? '0');
  return addEngineFlags(cmd)
    .option('--json <file>', 'write the JSON report here (- for stdout, which then carries nothing else)')
    .option('--markdown <file>', 'write the Markdown report here (- for stdout)')
    .option('--shard <i/n>', 'run only share i of n of the configurations (partial report)')
    .option('--quiet', 'no progress or summary: only the verdict line (on stderr)');
}
