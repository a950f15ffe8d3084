/**
 * Spec builders for the sandbox tests (DockerSandbox and ProcessSandbox run the same kind of
 * configurations): temporary folders, steps, a ConfigurationRunSpec with a small workspace, and
 * the checks for the step-order rules both sandboxes share (src/engine/step-sequence.ts).
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import type {
  ConfigurationRunOutcome,
  ConfigurationRunSpec,
  Sandbox,
  Step,
} from '../../src/engine/sandbox/sandbox.ts';

export const MiB = 1024 * 1024;

export function step(
  name: string,
  run: string,
  timeoutSec = 60,
  hiddenDir?: string,
  resultsPath?: string,
): Step {
  return { name, run, timeoutSec, hiddenDir, ...(resultsPath ? { resultsPath } : {}) };
}

export interface SandboxSpecOptions {
  /** Prefix of the temporary folders' names. */
  prefix: string;
  image: string;
  /** A fresh configuration id; by default `cfg-<temporary folder name>`. */
  configurationId?: () => string;
}

export interface LayoutRun {
  spec: ConfigurationRunSpec;
  out: ConfigurationRunOutcome;
  /** The dependency folder (holding `dep.js`) mounted at api/node_modules. */
  deps: string;
  /** The hidden folder of the `hidden` step (holding `secret.test.js`), inside the hidden root. */
  groupHidden: string;
}

export interface SandboxSpecs {
  /** A temporary folder, removed after the file's tests. */
  tempDir(): string;
  /** A configuration with a workspace holding repo `api` (with an index.js) and everything else empty. */
  makeSpec(overrides?: Partial<ConfigurationRunSpec>): ConfigurationRunSpec;
  /**
   * Runs a configuration that shows the sandbox's layout, and checks what both sandboxes share:
   * the setup step (prints $TANDEM_HIDDEN, writes api/built.txt) and every step ran, `results`
   * wrote $TANDEM_RESULTS/unit.json, `failing` reported stderr and exit 3. The first three tests
   * are left to the caller: `env` (pwd, the TANDEM_* variables, HOME, api/index.js and
   * api/built.txt), `deps` (reads then writes the dependency mount) and `hidden` (prints
   * $TANDEM_HIDDEN, reads then writes the hidden folder).
   */
  runLayout(sandbox: Sandbox): Promise<LayoutRun>;
  /** Runs setup `exit 7`, then steps that would touch files: the failure stops everything after it. */
  runSetupFailure(sandbox: Sandbox): Promise<void>;
}

/** Call at a test file's top level: the temporary folders are removed after all its tests. */
export function sandboxSpecs(options: SandboxSpecOptions): SandboxSpecs {
  const roots: string[] = [];
  afterAll(() => {
    for (const dir of roots.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = (): string => {
    const dir = mkdtempSync(path.join(tmpdir(), options.prefix));
    roots.push(dir);
    return dir;
  };
  const makeSpec = (overrides: Partial<ConfigurationRunSpec> = {}): ConfigurationRunSpec => {
    const root = tempDir();
    const workspaceDir = path.join(root, 'ws');
    mkdirSync(path.join(workspaceDir, 'api'), { recursive: true });
    writeFileSync(path.join(workspaceDir, 'api', 'index.js'), 'module.exports = 1;\n');
    const hiddenRoot = path.join(root, 'hidden');
    mkdirSync(hiddenRoot);
    const resultsDir = path.join(root, 'results');
    mkdirSync(resultsDir);
    return {
      configurationId: options.configurationId?.() ?? `cfg-${path.basename(root)}`,
      image: options.image,
      workspaceDir,
      readonlyMounts: [],
      hiddenRoot,
      resultsDir,
      setup: [],
      tests: [],
      limits: { memoryBytes: 512 * MiB, cpus: 1, pids: 256 },
      timeoutSec: 120,
      outputCapBytes: 64 * 1024,
      ...overrides,
    };
  };
  const runLayout = async (sandbox: Sandbox): Promise<LayoutRun> => {
    const spec = makeSpec();
    const deps = tempDir();
    // As a prepare leaves it: readable by the (unprivileged) step user.
    chmodSync(deps, 0o755);
    writeFileSync(path.join(deps, 'dep.js'), 'dep');
    spec.readonlyMounts = [{ hostPath: deps, workspacePath: 'api/node_modules' }];
    const groupHidden = path.join(spec.hiddenRoot, 'unit');
    mkdirSync(groupHidden);
    writeFileSync(path.join(groupHidden, 'secret.test.js'), 'hidden test');
    spec.setup = [step('setup:1', 'echo "setup sees $TANDEM_HIDDEN"; echo built > api/built.txt')];
    spec.tests = [
      step(
        'env',
        'pwd; echo "W=$TANDEM_WORKSPACE H=$TANDEM_HIDDEN R=$TANDEM_RESULTS C=$TANDEM_CONFIGURATION HOME=$HOME"; cat api/index.js api/built.txt',
      ),
      step('deps', 'cat api/node_modules/dep.js && echo; echo x > api/node_modules/new.js'),
      step(
        'hidden',
        'echo "$TANDEM_HIDDEN"; cat "$TANDEM_HIDDEN/secret.test.js" && echo; echo x > "$TANDEM_HIDDEN/new.txt"',
        60,
        groupHidden,
      ),
      step('results', 'echo \'{"ok":true}\' > "$TANDEM_RESULTS/unit.json"', 60, undefined, 'unit.json'),
      step('failing', 'echo to-stderr >&2; exit 3'),
    ];
    const out = await sandbox.runConfiguration(spec);
    expect(out.timedOut).toBe(false);
    expect(out.setup[0]).toMatchObject({ exitCode: 0, notRun: false });
    expect(out.tests.map((t) => t.notRun)).toEqual([false, false, false, false, false]);
    const [, , , results, failing] = out.tests;
    expect(results?.exitCode).toBe(0);
    // Taken out of the group's own results folder right after its step.
    expect(results?.resultFile).toEqual({ kind: 'text', text: '{"ok":true}\n' });
    expect(failing).toMatchObject({ exitCode: 3, timedOut: false, oomKilled: false, notRun: false });
    expect(failing?.outputTail).toBe('to-stderr\n');
    // Writes land in this configuration's workspace on the host.
    expect(readFileSync(path.join(spec.workspaceDir, 'api', 'built.txt'), 'utf8')).toBe('built\n');
    return { spec, out, deps, groupHidden };
  };
  const runSetupFailure = async (sandbox: Sandbox): Promise<void> => {
    const spec = makeSpec({
      setup: [step('setup:1', 'exit 7'), step('setup:2', 'touch "$TANDEM_RESULTS/s2"')],
      tests: [step('t', 'touch "$TANDEM_RESULTS/t"', 60, undefined, 't')],
    });
    const out = await sandbox.runConfiguration(spec);
    expect(out.setup.map((s) => [s.exitCode, s.notRun])).toEqual([
      [7, false],
      [null, true],
    ]);
    expect(out.tests[0]).toMatchObject({ notRun: true, exitCode: null });
    expect(out.tests[0]?.resultFile).toBeUndefined();
    expect(() => readFileSync(path.join(spec.resultsDir, 's2'))).toThrow();
  };
  return { tempDir, makeSpec, runLayout, runSetupFailure };
}

/** Tests `quick`, `slow` (past the configuration timeout) and `never`: the run timed out in `slow`. */
export function expectConfigurationTimedOut(out: ConfigurationRunOutcome): void {
  expect(out.timedOut).toBe(true);
  expect(out.tests.map((t) => [t.name, t.exitCode, t.timedOut, t.notRun])).toEqual([
    ['quick', 0, false, false],
    ['slow', null, true, false],
    ['never', null, false, true],
  ]);
}
