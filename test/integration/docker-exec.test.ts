/**
 * ContainerExec against a real container: a step's exec registered ahead (before the run slot is
 * free) is used, and one the engine no longer knows (the container was restarted after a failed
 * kill, which drops its execs) is created anew instead of failing the step.
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
