/**
 * The order-of-steps rules both sandboxes share, apart from how one command is run:
 *  - a configuration runs its setup steps first; the first failing one stops the run, and every
 *    remaining step (setup and tests) is marked `notRun`;
 *  - test steps all run, whatever the previous one did;
 *  - once the run's guard has stopped (configuration timeout or abort), the rest are `notRun`;
 *  - an abort rejects with InfraError('aborted') rather than returning outcomes to grade;
 *  - prepare runs its commands into one output tail and stops at the first failure.
 */
import { InfraError } from '../../core/errors.ts';
import { OutputTail } from '../results/output-tail.ts';
import type { ResultFileRead } from '../results/result-file.ts';
import type {
  ConfigurationRunOutcome,
  ConfigurationRunSpec,
  PrepareOutcome,
  PrepareSpec,
  Step,
  StepOutcome,
} from './sandbox.ts';

/** What running one command tells the sequence (a sandbox without OOM detection says false). */
export interface CommandResult {
  /** null when the command was killed (step or configuration timeout, abort) or its code is unknown. */
  exitCode: number | null;
  timedOut: boolean;
  oomKilled: boolean;
  durationMs: number;
  /**
   * Set when the sandbox itself died while this command ran (PID 1 gone, the container killed
   * for memory): the code under test did it, so the step fails with this reason and nothing
   * after it runs. Never set for Tandem's own failures (those throw InfraError).
   */
  containerLost?: string;
  /** A test group's result file, taken out by the host right after the step. */
  resultFile?: ResultFileRead;
}

/** Why the run was stopped, if it was: read before every step. */
export type StopState = () => 'timeout' | 'abort' | null;

export async function runSteps(
  spec: Pick<ConfigurationRunSpec, 'configurationId' | 'setup' | 'tests' | 'outputCapBytes'>,
  stopped: StopState,
  runStep: (step: Step, tail: OutputTail) => Promise<CommandResult>,
): Promise<ConfigurationRunOutcome> {
  let setupFailed = false;
  let lost: ConfigurationRunOutcome['containerLost'];
  const runAll = async (steps: Step[], stopOnFailure: boolean): Promise<StepOutcome[]> => {
    const out: StepOutcome[] = [];
    for (const step of steps) {
      if (setupFailed || lost || stopped()) {
        out.push(notRun(step.name));
        continue;
      }
      const tail = new OutputTail(spec.outputCapBytes);
      const r = await runStep(step, tail);
      out.push({ name: step.name, ...r, notRun: false, outputTail: tail.toString() });
      if (r.containerLost) lost = { step: step.name, reason: r.containerLost };
      if (stopOnFailure && r.exitCode !== 0) setupFailed = true;
    }
    return out;
  };
  const setup = await runAll(spec.setup, true);
  const tests = await runAll(spec.tests, false);
  const reason = stopped();
  if (reason === 'abort') throw aborted(spec.configurationId);
  return { setup, tests, timedOut: reason === 'timeout', ...(lost ? { containerLost: lost } : {}) };
}

/**
 * Runs prepare commands in order into one tail, stopping at the first non-zero exit. A timeout
 * reports exitCode null; `started` is when the sandbox began (container start counts too).
 */
export async function runPrepareCommands(
  spec: Pick<PrepareSpec, 'commands' | 'outputCapBytes'>,
  stopped: StopState,
  started: number,
  runCommand: (command: string, tail: OutputTail) => Promise<CommandResult>,
): Promise<PrepareOutcome> {
  const tail = new OutputTail(spec.outputCapBytes);
  let exitCode: number | null = 0;
  let oomKilled = false;
  for (const command of spec.commands) {
    const r = await runCommand(command, tail);
    exitCode = r.exitCode;
    oomKilled ||= r.oomKilled;
    if (exitCode !== 0) break;
  }
  const reason = stopped();
  if (reason === 'abort') throw aborted();
  const timedOut = reason === 'timeout';
  return {
    exitCode: timedOut ? null : exitCode,
    timedOut,
    oomKilled,
    durationMs: Date.now() - started,
    outputTail: tail.toString(),
  };
}

/** Variables that point package managers and git at a CA bundle (prepare, both sandboxes). */
export const CA_BUNDLE_VARIABLES = [
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'GIT_SSL_CAINFO',
  'npm_config_cafile',
];

/** Package managers' cache variables, relative to the download cache folder (prepare, both sandboxes). */
export const DOWNLOAD_CACHE_VARIABLES: Record<string, string> = {
  npm_config_cache: 'npm',
  PIP_CACHE_DIR: 'pip',
  GOMODCACHE: 'go/mod',
  GOCACHE: 'go/build',
};

export function aborted(configuration?: string): InfraError {
  return new InfraError('aborted', 'the run was aborted', configuration ? { configuration } : {});
}

function notRun(name: string): StepOutcome {
  return {
    name,
    exitCode: null,
    durationMs: 0,
    timedOut: false,
    oomKilled: false,
    notRun: true,
    outputTail: '',
  };
}
