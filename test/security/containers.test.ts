/**
 * Containers never outlive their owner for long (issue 8, finding 8), with real Docker: the CLI
 * stopped with SIGTERM (what CI, systemd and Kubernetes send) removes its containers, and a
 * container whose owning process died without cleaning up is removed by the next run — while
 * containers of live owners, or of owners this process cannot judge, are left alone.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import {
  currentOwner,
  OWNER_LABELS,
  ownerLabels,
  processOwner,
} from '../../src/engine/docker/container-owner.ts';
import { createDockerClient } from '../../src/engine/docker/docker-client.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { appChecksCase, hangGroup, SANDBOX_IMAGE, shellCase, startCli } from '../helpers/example-cases.ts';

const docker = dockerSuite('sec-containers');
const engine: Docker = createDockerClient();
const created: string[] = [];

afterAll(async () => {
  for (const id of created)
    await engine
      .getContainer(id)
      .remove({ force: true })
      .catch(() => {});
});

async function containersOwnedBy(pid: number): Promise<string[]> {
  const list = await engine.listContainers({ all: true, filters: { label: [`${OWNER_LABELS.pid}=${pid}`] } });
  return list.map((c) => c.Id);
}

async function exists(id: string): Promise<boolean> {
  try {
    await engine.getContainer(id).inspect();
    return true;
  } catch {
    return false;
  }
}

async function idleContainer(labels: Record<string, string>): Promise<string> {
  const c = await engine.createContainer({
    Image: SANDBOX_IMAGE,
    Cmd: ['sleep', '600'],
    Labels: { tandem: '1', 'tandem.test': 'sec-containers', ...labels },
    HostConfig: { NetworkMode: 'none' },
  });
  created.push(c.id);
  await c.start();
  return c.id;
}

describe('attack: leaving containers behind', () => {
  it('SIGTERM stops the CLI cleanly: exit 130, no container of its own left', async () => {
    const c = await shellCase({
      name: 'term',
      repos: [{ name: 'app', base: { 'app.txt': 'alpha\n' }, head: { 'feature.txt': 'on\n' } }],
      suite: { name: 'term-suite', image: SANDBOX_IMAGE, tests: [hangGroup(600)] },
      hidden: {},
    });
    docker.track(c.root);
    const cache = path.join(c.root, 'cache');
    const run = startCli([
      'eval',
      c.caseFile,
      '--cache-dir',
      cache,
      '--jobs',
      '2',
      '--prepare-network',
      'host',
    ]);
    const pid = run.child.pid!;
    // Poll (bounded) until one of its configuration containers is up.
    let seen: string[] = [];
    for (let i = 0; i < 240 && seen.length === 0; i++) {
      await sleep(250);
      seen = await containersOwnedBy(pid);
    }
    expect(seen.length).toBeGreaterThan(0);
    run.child.kill('SIGTERM');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('terminated');
    expect(await containersOwnedBy(pid)).toEqual([]);
  });

  it('removes containers of a dead owner at the next run, and only those', async () => {
    const child = spawn('sleep', ['600'], { stdio: 'ignore' });
    const dead = processOwner(child.pid!);
    expect(dead).toBeDefined();
    child.kill('SIGKILL');
    await once(child, 'exit');
    const orphan = await idleContainer(ownerLabels(dead));
    const live = await idleContainer(ownerLabels(currentOwner()));
    // Another pid namespace (a runner container sharing the daemon): never judged from here.
    const foreign = await idleContainer({ ...ownerLabels(dead), [OWNER_LABELS.pidns]: 'pid:[1]' });
    const unlabelled = await idleContainer({});

    const c = await appChecksCase({
      name: 'sweep',
      base: { 'app.txt': 'alpha\n' },
      head: { 'feature.txt': 'on\n' },
      checks: [{ name: 'has app', cmd: 'test -f app/app.txt' }],
    });
    docker.track(c.root);
    const report = await docker.evaluate(c.input, { useResultCache: false });
    expect(report.infraErrors).toEqual([]);

    expect(await exists(orphan)).toBe(false);
    expect(await exists(live)).toBe(true);
    expect(await exists(foreign)).toBe(true);
    expect(await exists(unlabelled)).toBe(true);
  });
});
