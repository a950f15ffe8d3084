import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InfraError } from '../../src/core/errors.ts';
import { ProcessSandbox } from '../../src/engine/process-sandbox.ts';
import type { ConfigurationRunSpec, Step } from '../../src/engine/sandbox.ts';

const MiB = 1024 * 1024;
const roots: string[] = [];
const sandbox = new ProcessSandbox();

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'tandem-process-sb-'));
  roots.push(dir);
  return dir;
}

function step(name: string, run: string, timeoutSec = 60, hiddenDir?: string): Step {
  return { name, run, timeoutSec, hiddenDir };
}

function makeSpec(overrides: Partial<ConfigurationRunSpec> = {}): ConfigurationRunSpec {
  const root = tempDir();
  const workspaceDir = path.join(root, 'ws');
  mkdirSync(path.join(workspaceDir, 'api'), { recursive: true });
  writeFileSync(path.join(workspaceDir, 'api', 'index.js'), 'module.exports = 1;\n');
  const hiddenRoot = path.join(root, 'hidden');
  mkdirSync(hiddenRoot);
  const resultsDir = path.join(root, 'results');
  mkdirSync(resultsDir);
  return {
    configurationId: `cfg-${path.basename(root)}`,
    image: 'ignored',
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
}

/** True while a process with this pid exists and is not a zombie waiting to be reaped. */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Whether the process is still running after a short grace (a SIGKILL is delivered asynchronously). */
async function alive(pid: number): Promise<boolean> {
  for (let i = 0; i < 20 && running(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return running(pid);
}

afterAll(async () => {
  await sandbox.dispose();
  for (const dir of roots) rmSync(dir, { recursive: true, force: true });
});

describe('ProcessSandbox', () => {
  it('says it is unsandboxed', async () => {
    expect(sandbox.kind).toBe('process');
    expect(await sandbox.imageId('tandem/sandbox:node20')).toBe('process');
  });

  it('runs steps in the workspace with the TANDEM_* environment', async () => {
    const spec = makeSpec();
    const deps = tempDir();
    writeFileSync(path.join(deps, 'dep.js'), 'dep');
    spec.readonlyMounts = [{ hostPath: deps, workspacePath: 'api/node_modules' }];
    const groupHidden = path.join(spec.hiddenRoot, 'unit');
    mkdirSync(groupHidden);
    writeFileSync(path.join(groupHidden, 'secret.test.js'), 'hidden test');
    spec.setup = [step('setup:1', 'echo "setup sees $TANDEM_HIDDEN"; echo built > api/built.txt')];
    spec.tests = [
      step(
        'env',
        'pwd; echo "W=$TANDEM_WORKSPACE R=$TANDEM_RESULTS C=$TANDEM_CONFIGURATION"; cat api/built.txt',
      ),
      step('deps', 'cat api/node_modules/dep.js'),
      step('hidden', 'echo "$TANDEM_HIDDEN"; cat "$TANDEM_HIDDEN/secret.test.js"', 60, groupHidden),
      step('results', 'echo \'{"ok":true}\' > "$TANDEM_RESULTS/unit.json"'),
      step('failing', 'echo to-stderr >&2; exit 3'),
    ];
    const out = await sandbox.runConfiguration(spec);
    expect(out.timedOut).toBe(false);
    expect(out.setup[0]?.outputTail).toBe(`setup sees ${spec.hiddenRoot}\n`);
    const [env, deps2, hidden, results, failing] = out.tests;
    expect(env?.outputTail).toBe(
      `${spec.workspaceDir}\nW=${spec.workspaceDir} R=${spec.resultsDir} C=${spec.configurationId}\nbuilt\n`,
    );
    expect(deps2).toMatchObject({ exitCode: 0, outputTail: 'dep' });
    expect(hidden?.outputTail).toBe(`${groupHidden}\nhidden test`);
    expect(results?.exitCode).toBe(0);
    expect(readFileSync(path.join(spec.resultsDir, 'unit.json'), 'utf8')).toBe('{"ok":true}\n');
    expect(failing).toMatchObject({ exitCode: 3, timedOut: false, oomKilled: false, notRun: false });
    expect(failing?.outputTail).toBe('to-stderr\n');
    // The mount symlink is gone again; the dependency folder is untouched.
    expect(() => readFileSync(path.join(spec.workspaceDir, 'api/node_modules/dep.js'))).toThrow();
    expect(readFileSync(path.join(deps, 'dep.js'), 'utf8')).toBe('dep');
  });

  it('stops at the first failing setup step', async () => {
    const spec = makeSpec({
      setup: [step('setup:1', 'exit 7'), step('setup:2', 'touch "$TANDEM_RESULTS/s2"')],
      tests: [step('t', 'touch "$TANDEM_RESULTS/t"')],
    });
    const out = await sandbox.runConfiguration(spec);
    expect(out.setup.map((s) => [s.exitCode, s.notRun])).toEqual([
      [7, false],
      [null, true],
    ]);
    expect(out.tests[0]).toMatchObject({ notRun: true, exitCode: null });
    expect(() => readFileSync(path.join(spec.resultsDir, 's2'))).toThrow();
  });

  it('kills a hanging step with its children at the timeout, then runs the next step', async () => {
    const spec = makeSpec({
      tests: [
        step('hang', 'sleep 300 & echo $! > "$TANDEM_RESULTS/bg.pid"; echo started; sleep 301', 1),
        step('after', 'echo after'),
      ],
    });
    const out = await sandbox.runConfiguration(spec);
    expect(out.tests[0]).toMatchObject({ timedOut: true, exitCode: null, outputTail: 'started\n' });
    expect(out.tests[1]).toMatchObject({ exitCode: 0, outputTail: 'after\n' });
    const bg = Number(readFileSync(path.join(spec.resultsDir, 'bg.pid'), 'utf8'));
    expect(await alive(bg)).toBe(false);
  });

  it('stops the configuration at its timeout and kills leftovers', async () => {
    const spec = makeSpec({
      timeoutSec: 1,
      tests: [
        step('quick', 'sleep 120 & echo $! > "$TANDEM_RESULTS/bg.pid"; echo ok'),
        step('slow', 'sleep 60'),
        step('never', 'echo never'),
      ],
    });
    const out = await sandbox.runConfiguration(spec);
    expect(out.timedOut).toBe(true);
    expect(out.tests.map((t) => [t.name, t.exitCode, t.timedOut, t.notRun])).toEqual([
      ['quick', 0, false, false],
      ['slow', null, true, false],
      ['never', null, false, true],
    ]);
    expect(await alive(Number(readFileSync(path.join(spec.resultsDir, 'bg.pid'), 'utf8')))).toBe(false);
  });

  it('reports a signal death as 128+n', async () => {
    const out = await sandbox.runConfiguration(makeSpec({ tests: [step('self-kill', 'kill -9 $$')] }));
    expect(out.tests[0]).toMatchObject({ exitCode: 137, oomKilled: false, timedOut: false });
  });

  it('aborts via the signal', async () => {
    const controller = new AbortController();
    const spec = makeSpec({
      signal: controller.signal,
      tests: [step('t', 'echo $$ > "$TANDEM_RESULTS/pid"; sleep 60')],
    });
    const settled = sandbox.runConfiguration(spec).catch((e: unknown) => e);
    setTimeout(() => controller.abort(), 300);
    const err = await settled;
    expect(err).toBeInstanceOf(InfraError);
    expect(err).toMatchObject({ kind: 'aborted' });
    expect(await alive(Number(readFileSync(path.join(spec.resultsDir, 'pid'), 'utf8')))).toBe(false);
    await expect(sandbox.runConfiguration(makeSpec({ signal: controller.signal }))).rejects.toMatchObject({
      kind: 'aborted',
    });
  });

  it('dispose kills running commands', async () => {
    const local = new ProcessSandbox();
    const spec = makeSpec({ tests: [step('t', 'echo $$ > "$TANDEM_RESULTS/pid"; sleep 60')] });
    const settled = local.runConfiguration(spec).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 300));
    await local.dispose();
    expect(await settled).toMatchObject({ kind: 'aborted' });
    expect(await alive(Number(readFileSync(path.join(spec.resultsDir, 'pid'), 'utf8')))).toBe(false);
  });

  it('keeps only the tail of long output', async () => {
    const out = await sandbox.runConfiguration(
      makeSpec({ outputCapBytes: 100, tests: [step('loud', 'seq 1 10000; echo LAST')] }),
    );
    const tail = out.tests[0]?.outputTail ?? '';
    expect(tail).toMatch(/^\[\.\.\. \d+ bytes cut\]\n/);
    expect(tail.endsWith('9999\n10000\nLAST\n')).toBe(true);
    expect(tail.length - tail.indexOf('\n') - 1).toBe(100);
  });

  it('prepares a repository: cwd, CA variables, stop at first failure, timeout', async () => {
    const repoDir = path.join(tempDir(), 'api');
    mkdirSync(repoDir);
    const ca = path.join(tempDir(), 'ca.pem');
    writeFileSync(ca, 'fake');
    const base = {
      image: 'ignored',
      repoDir,
      repoName: 'api',
      limits: { memoryBytes: 256 * MiB, cpus: 1, pids: 64 },
      network: 'host',
      outputCapBytes: 10_000,
    };
    const out = await sandbox.prepare({
      ...base,
      commands: [
        'pwd; echo "$NODE_EXTRA_CA_CERTS $GIT_SSL_CAINFO"; touch made.txt',
        'exit 4',
        'touch never.txt',
      ],
      timeoutSec: 60,
      caBundle: ca,
    });
    expect(out).toMatchObject({
      exitCode: 4,
      timedOut: false,
      oomKilled: false,
      outputTail: `${repoDir}\n${ca} ${ca}\n`,
    });
    expect(readFileSync(path.join(repoDir, 'made.txt'), 'utf8')).toBe('');
    expect(() => readFileSync(path.join(repoDir, 'never.txt'))).toThrow();
    const slow = await sandbox.prepare({ ...base, commands: ['echo before', 'sleep 60'], timeoutSec: 1 });
    expect(slow).toMatchObject({ exitCode: null, timedOut: true, outputTail: 'before\n' });
  });
});
