import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InfraError } from '../../src/core/errors.ts';
import { ProcessSandbox } from '../../src/engine/sandbox/process-sandbox.ts';
import { expectConfigurationTimedOut, MiB, sandboxSpecs, step } from '../helpers/sandbox-spec.ts';

const sandbox = new ProcessSandbox();
const { tempDir, makeSpec, runLayout, runSetupFailure } = sandboxSpecs({
  prefix: 'tandem-process-sb-',
  image: 'ignored',
});

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

afterAll(() => sandbox.dispose());

describe('ProcessSandbox', () => {
  it('says it is unsandboxed', async () => {
    expect(sandbox.kind).toBe('process');
    expect(await sandbox.imageId('tandem/sandbox:node20')).toBe('process');
  });

  it('runs steps in the workspace with the TANDEM_* environment', async () => {
    const { spec, out, deps, groupHidden } = await runLayout(sandbox);
    const { workspaceDir: ws, hiddenRoot, resultsDir, configurationId } = spec;
    expect(out.setup[0]?.outputTail).toBe(`setup sees ${hiddenRoot}\n`);
    // Each group has a results folder of its own, made for its step.
    const groupResults = /R=(\S+) /.exec(out.tests[0]?.outputTail ?? '')?.[1] ?? '';
    expect(path.dirname(groupResults)).toBe(resultsDir);
    expect(path.basename(groupResults)).toMatch(/^group-0-[0-9a-f]{24}$/);
    expect(out.tests.slice(0, 3).map((t) => [t.exitCode, t.outputTail])).toEqual([
      [
        0,
        `${ws}\nW=${ws} H=${hiddenRoot} R=${groupResults} C=${configurationId} HOME=${process.env.HOME ?? ''}\nmodule.exports = 1;\nbuilt\n`,
      ],
      // Not read-only here (see ProcessSandbox): the writes succeed.
      [0, 'dep\n'],
      [0, `${groupHidden}\nhidden test\n`],
    ]);
    // The mount symlink is gone again; the dependency folder is still there.
    expect(() => readFileSync(path.join(ws, 'api/node_modules/dep.js'))).toThrow();
    expect(readFileSync(path.join(deps, 'dep.js'), 'utf8')).toBe('dep');
  });

  it('stops at the first failing setup step', () => runSetupFailure(sandbox));

  it('kills a hanging step with its children at the timeout, then runs the next step', async () => {
    const spec = makeSpec({
      tests: [
        step('hang', 'sleep 300 & echo $! > "$TANDEM_WORKSPACE/bg.pid"; echo started; sleep 301', 1),
        step('after', 'echo after'),
      ],
    });
    const out = await sandbox.runConfiguration(spec);
    expect(out.tests[0]).toMatchObject({ timedOut: true, exitCode: null, outputTail: 'started\n' });
    expect(out.tests[1]).toMatchObject({ exitCode: 0, outputTail: 'after\n' });
    const bg = Number(readFileSync(path.join(spec.workspaceDir, 'bg.pid'), 'utf8'));
    expect(await alive(bg)).toBe(false);
  });

  it('stops the configuration at its timeout and kills leftovers', async () => {
    const spec = makeSpec({
      timeoutSec: 1,
      tests: [
        step('quick', 'sleep 120 & echo $! > "$TANDEM_WORKSPACE/bg.pid"; echo ok'),
        step('slow', 'sleep 60'),
        step('never', 'echo never'),
      ],
    });
    const out = await sandbox.runConfiguration(spec);
    expectConfigurationTimedOut(out);
    expect(await alive(Number(readFileSync(path.join(spec.workspaceDir, 'bg.pid'), 'utf8')))).toBe(false);
  });

  it('reports a signal death as 128+n', async () => {
    const out = await sandbox.runConfiguration(makeSpec({ tests: [step('self-kill', 'kill -9 $$')] }));
    expect(out.tests[0]).toMatchObject({ exitCode: 137, oomKilled: false, timedOut: false });
  });

  it('aborts via the signal', async () => {
    const controller = new AbortController();
    const spec = makeSpec({
      signal: controller.signal,
      tests: [step('t', 'echo $$ > "$TANDEM_WORKSPACE/pid"; sleep 60')],
    });
    const settled = sandbox.runConfiguration(spec).catch((e: unknown) => e);
    setTimeout(() => controller.abort(), 300);
    const err = await settled;
    expect(err).toBeInstanceOf(InfraError);
    expect(err).toMatchObject({ kind: 'aborted' });
    expect(await alive(Number(readFileSync(path.join(spec.workspaceDir, 'pid'), 'utf8')))).toBe(false);
    await expect(sandbox.runConfiguration(makeSpec({ signal: controller.signal }))).rejects.toMatchObject({
      kind: 'aborted',
    });
  });

  it('dispose kills running commands', async () => {
    const local = new ProcessSandbox();
    const spec = makeSpec({ tests: [step('t', 'echo $$ > "$TANDEM_WORKSPACE/pid"; sleep 60')] });
    const settled = local.runConfiguration(spec).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 300));
    await local.dispose();
    expect(await settled).toMatchObject({ kind: 'aborted' });
    expect(await alive(Number(readFileSync(path.join(spec.workspaceDir, 'pid'), 'utf8')))).toBe(false);
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
