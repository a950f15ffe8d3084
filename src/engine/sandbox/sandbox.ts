import type { EgressLimits } from '../../core/egress-limits.ts';
import type { ResultFileRead } from '../results/result-file.ts';

/**
 * The sandbox contract shared by DockerSandbox (the real one) and ProcessSandbox (development,
 * unsandboxed). The engine assembles a per-configuration workspace on the host; the sandbox runs
 * commands against it. Inside, the environment is:
 *   TANDEM_WORKSPACE      workspace root; each repository at $TANDEM_WORKSPACE/<repo name>
 *   TANDEM_HIDDEN         the current test group's hidden files only (Docker: setup sees an
 *                         empty folder; ProcessSandbox, unsandboxed, gives setup the hidden root)
 *   TANDEM_RESULTS        where result files are written: a test group's own fresh folder,
 *                         which exists only while its step runs
 *   TANDEM_CONFIGURATION  the configuration id
 *   HOME, TMPDIR          Docker: fresh, empty folders of each test group's own (setup shares one
 *                         pair of its own), so nothing a group leaves there reaches another
 * Commands run with `sh -c` in $TANDEM_WORKSPACE (Docker: not writable by the steps; only the
 * repository folders in it are).
 */

export interface ReadonlyMount {
  /** Host folder (a prepared dependency folder). */
  hostPath: string;
  /** Where it appears, relative to the workspace root (e.g. `api/node_modules`). */
  workspacePath: string;
}

/**
 * A folder of the workspace that also appears at a second place in it (suite `wiring`): the
 * producer's checkout inside the consumer. A bind mount in Docker (so it works inside read-only
 * prepared folders, whose mount point the prepare left), a symlink in the process sandbox.
 */
export interface WorkspaceLink {
  /** Relative to the workspace root, e.g. `schema` or `schema/packages/core`. */
  source: string;
  /** Relative to the workspace root, e.g. `api/node_modules/@acme/schema`. */
  target: string;
}

export interface SandboxLimits {
  memoryBytes: number;
  cpus: number;
  pids: number;
}

export interface Step {
  /** `setup:1`, or the test group's name. */
  name: string;
  run: string;
  timeoutSec: number;
  /** Host folder mounted (read-only in Docker) as $TANDEM_HIDDEN for this step. */
  hiddenDir?: string;
  /**
   * A test group's result file, relative to $TANDEM_RESULTS: the step gets a fresh, empty
   * results folder of its own, and the host takes this file out right after it (results/group-results.ts).
   */
  resultsPath?: string;
  /**
   * A test group that must not see earlier groups' writes (suite `isolate`): Docker restores the
   * repository folders, /tmp and /dev/shm to what setup left before the step.
   */
  isolate?: boolean;
}

export interface ConfigurationRunSpec {
  configurationId: string;
  image: string;
  /** Host folder, writable, private to this configuration. */
  workspaceDir: string;
  readonlyMounts: ReadonlyMount[];
  /** Wired folders, applied after the read-only mounts they may lie in. */
  links?: WorkspaceLink[];
  /** Variables whose value is a `:`-list of workspace-relative paths (PYTHONPATH, GOWORK). */
  workspaceEnv?: Record<string, string[]>;
  /** Host folder holding every group's hidden folder (never mounted whole by Docker). */
  hiddenRoot: string;
  /** Host folder, empty, private to the configuration: each group's results folder is made in it. */
  resultsDir: string;
  /** Setup steps run first; the first failing one stops the run (remaining steps are not run). */
  setup: Step[];
  tests: Step[];
  limits: SandboxLimits;
  /** Seconds for the whole configuration; past it the sandbox is killed. */
  timeoutSec: number;
  /** Bytes of output kept per step (the tail). */
  outputCapBytes: number;
  signal?: AbortSignal;
  /**
   * Resolves when a run slot is free. A sandbox may do everything before the start meanwhile
   * (Docker creates and starts the idle container), so that cost hides behind the previous
   * configuration.
   * The configuration timeout counts from the start.
   */
  startGate?: Promise<void>;
}

export interface StepOutcome {
  name: string;
  /** null when the step was killed or never ran. */
  exitCode: number | null;
  durationMs: number;
  timedOut: boolean;
  oomKilled: boolean;
  /** True when a failed setup step or the configuration timeout stopped the run before this step. */
  notRun: boolean;
  outputTail: string;
  /** The sandbox died while this step ran (the step's doing): why. */
  containerLost?: string;
  /** The step's result file as the host took it out right after the step (test groups only). */
  resultFile?: ResultFileRead;
}

export interface ConfigurationRunOutcome {
  setup: StepOutcome[];
  tests: StepOutcome[];
  /** True when the configuration as a whole ran past its timeout. */
  timedOut: boolean;
  /** The sandbox died while running `step` (PR code did it); the steps after it did not run. */
  containerLost?: { step: string; reason: string };
}

export interface PrepareSpec {
  image: string;
  /** Host folder of the repository state, writable; the commands run in it. */
  repoDir: string;
  /** Name of the repository folder (`<repo name>`), for $TANDEM_WORKSPACE/<name> inside. */
  repoName: string;
  commands: string[];
  timeoutSec: number;
  limits: SandboxLimits;
  /**
   * The process sandbox's note of the engine network (`bridge`, `host`); the Docker sandbox
   * gives a prepare no network but its egress proxy to `egressAllow`, on every engine.
   */
  network: string;
  /** Hosts the commands may reach (core/prepare-egress.ts); the public registries when absent. */
  egressAllow?: readonly string[];
  /** What the commands may hold through the egress proxy (core/egress-limits.ts); the defaults when absent. */
  egressLimits?: EgressLimits;
  /** Host CA bundle handed to the container (mounted read-only, NODE_EXTRA_CA_CERTS etc.). */
  caBundle?: string;
  /**
   * Host folder, writable, kept across evaluations: the package managers' download cache
   * (npm_config_cache, PIP_CACHE_DIR, GOMODCACHE under it).
   */
  downloadCache?: string;
  outputCapBytes: number;
  signal?: AbortSignal;
}

export interface PrepareOutcome {
  exitCode: number | null;
  timedOut: boolean;
  oomKilled: boolean;
  durationMs: number;
  outputTail: string;
}

export interface Sandbox {
  /** `docker` or `process`; reports show it so unsandboxed runs are never mistaken. */
  readonly kind: 'docker' | 'process';
  /**
   * An id for the image that changes when the image does (the Docker image id); part of
   * result cache keys. Throws InfraError('image-missing') when the image is not available.
   */
  imageId(image: string): Promise<string>;
  /**
   * Throws InputError when `limits` can never be met here (more CPUs than the engine has), so
   * the suite is refused before any work. Engine trouble is not reported here but by the runs.
   */
  checkLimits?(limits: SandboxLimits): Promise<void>;
  /** An abort (signal or dispose) rejects with InfraError('aborted'): never graded as a failure. */
  runConfiguration(spec: ConfigurationRunSpec): Promise<ConfigurationRunOutcome>;
  prepare(spec: PrepareSpec): Promise<PrepareOutcome>;
  /** Removes anything still running (on SIGINT). */
  dispose(): Promise<void>;
}
