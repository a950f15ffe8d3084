/**
 * ContainerExec against a real container: a step's exec registered ahead (before the run slot is
 * free) is used, and one the engine no longer knows (the container was restarted after a failed
 * kill, which drops its execs) is created anew instead of failing the step. The leftover kill
 * kills what a step left running, and costs no exec when the step left nothing.
 */
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDockerClient } from '../../src/engine/docker/docker-client.ts';
import { ContainerExec, createStepExec } from '../../src/engine/docker/docker-exec.ts';
import { OutputTail } from '../../src/engine/results/output-tail.ts';
import { RunGuard } from '../../src/engine/sandbox/run-guard.ts';
import { stepUser } from '../../src/engine/sandbox/step-user.ts';
import { ensureDocker, SANDBOX_IMAGE } from '../helpers/example-cases.ts';

const docker = createDockerClient();
let container: Docker.Container;
let guard: RunGuard;

beforeAll(async () => {
  ensureDocker();
  container = await docker.createContainer({
    Image: SANDBOX_IMAGE,
    Cmd: ['sh', '-c', 'trap "exit 0" TERM; while :; do sleep 3600 & wait; done'],
    Labels: { 'tandem.test': 'docker-exec' },
    NetworkDisabled: true,
    HostConfig: { NetworkMode: 'none' },
  });
  await container.start();
  guard = new RunGuard(() => {}, 120_000);
}, 300_000);

afterAll(async () => {
  guard?.close();
  await container?.remove({ force: true, v: true });
});

describe('ContainerExec', () => {
  it('runs a step through its exec registered ahead', async () => {
    const created = createStepExec(container, 'echo "ahead $0 $(id -u)"; exit 4', []);
    const tail = new OutputTail(1024);
    const r = await new ContainerExec(docker, container, guard).run('ignored', [], 10_000, tail, created);
    // The registered command ran (not the one passed to run), as the unprivileged step user.
    expect(r).toMatchObject({ exitCode: 4, timedOut: false });
    expect(tail.toString()).toBe(`ahead sh ${stepUser().split(':')[0]}\n`);
  });

  it('kills what a step left running, and runs no kill exec when nothing of the step is left', async () => {
    const exec = new ContainerExec(docker, container, guard);
    const stepUid = stepUser().split(':')[0]!;
    const stepProcesses = async () =>
      ((await container.top({ ps_args: '-o pid,uid' })).Processes as string[][]).filter(
        (r) => r[1]!.trim() === stepUid,
      ).length;
    // The engine's own record of the execs started in the container, in order.
    const since = Math.floor(Date.now() / 1000) - 1;
    const events = (await docker.getEvents({
      since,
      filters: { container: [container.id], event: ['exec_start'] },
    })) as NodeJS.ReadableStream;
    const started: string[] = [];
    let marked = () => {};
    const markerSeen = new Promise<void>((r) => (marked = r));
    events.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        const action = String((JSON.parse(line) as { Action?: string }).Action ?? '');
        started.push(action);
        if (action.includes('echo marker')) marked();
      }
    });
    try {
      await exec.run('true', [], 10_000, new OutputTail(0));
      exec.killAhead();
      await exec.killLeftovers();
      await exec.run('echo marker', [], 10_000, new OutputTail(0));
      await markerSeen;
      const upToMarker = started.slice(
        0,
        started.findIndex((a) => a.includes('echo marker')),
      );
      expect(upToMarker.some((a) => a.includes('echo true') || a.includes(' true'))).toBe(true);
      expect(upToMarker.filter((a) => a.includes('kill'))).toEqual([]);

      await exec.run('sleep 300 > /dev/null 2>&1 &', [], 10_000, new OutputTail(0));
      expect(await stepProcesses()).toBe(1);
      await exec.killLeftovers();
      expect(await stepProcesses()).toBe(0);
    } finally {
      (events as unknown as { destroy: () => void }).destroy();
    }
  });

  it('creates the exec anew when the registered one is gone with a restart', async () => {
    const created = createStepExec(container, 'echo fresh', []);
    await created;
    await container.restart({ t: 0 });
    const tail = new OutputTail(1024);
    const r = await new ContainerExec(docker, container, guard).run('echo fresh', [], 10_000, tail, created);
    expect(r).toMatchObject({ exitCode: 0, timedOut: false });
    expect(tail.toString()).toBe('fresh\n');
  });
});
