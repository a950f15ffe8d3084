/**
 * A worker dying mid-job with the Docker sandbox: real PostgreSQL (a database of this test's
 * own), two real `tandem worker` processes (bin/tandem.js, `--sandbox docker`, the
 * tandem/sandbox:node20 image) and the App's WorkersExecutor with a 3-second lease. Worker a's
 * first configuration holds in its container (the check blocks when its folders are a's, which
 * it reads from its own mount table); a is SIGKILLed while that container runs. The container
 * outlives its owner (Docker's daemon holds it); the worker started next on the host removes it
 * (its owner is dead) before taking a job, runs the retried job once the lease expired, the
 * killed attempt counts for nothing, and the evaluation completes with no infrastructure error. Waits on Docker's events and the report.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkersExecutor } from '../../src/app/executors/workers-executor.ts';
import { OWNER_LABELS } from '../../src/engine/docker/container-owner.ts';
import { createDockerClient } from '../../src/engine/docker/docker-client.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';
import { type WorkerPoolCase, workerPoolCase } from '../helpers/worker-pool-case.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/worker-pool-db.ts';
import { startWorker, type WorkerProcess } from '../helpers/worker-processes.ts';

const docker = createDockerClient();
let db: TestDatabase;
let root: string;
let world: WorkerPoolCase;
const workers: WorkerProcess[] = [];

/** Blocks in a's containers only: their workspace folders are under `work-a`. */
const CHECK = `if grep -q "/work-a/" /proc/self/mountinfo; then exec tail -f /dev/null; fi
if grep -q new "$TANDEM_WORKSPACE/api/value.txt"; then r="ok"; else r="not ok"; fi
printf 'TAP version 13\\n1..1\\n%s 1 - value is new\\n' "$r" > "$TANDEM_RESULTS/r.tap"
`;

/** The first configuration container `pid`'s worker starts (Docker's event stream). */
async function containerStarted(pid: number): Promise<{ id: string; configuration: string }> {
  const stream = await docker.getEvents({
    filters: {
      type: ['container'],
      event: ['start'],
      label: [`${OWNER_LABELS.pid}=${pid}`, 'tandem.configuration'],
    },
  });
  return new Promise((resolve) => {
    let rest = '';
    stream.on('data', (chunk: Buffer) => {
      const parts = (rest + chunk.toString()).split('\n');
      rest = parts.pop() ?? '';
      for (const p of parts.filter(Boolean)) {
        const e = JSON.parse(p) as { id: string; Actor: { Attributes: Record<string, string> } };
        (stream as unknown as { destroy(): void }).destroy();
        resolve({ id: e.id, configuration: e.Actor.Attributes['tandem.configuration'] ?? '' });
        return;
      }
    });
  });
}

const containersOf = (pid: number) =>
  docker.listContainers({ all: true, filters: { label: [`${OWNER_LABELS.pid}=${pid}`] } });

beforeAll(async () => {
  db = await createTestDatabase();
  root = await makeTempDir('tandem-workers-kill-docker-');
  world = await workerPoolCase(root);
  await writeFile(path.join(world.spec.suiteDir, 'check.sh'), CHECK);
  world.spec.suite = {
    ...world.spec.suite,
    tests: world.spec.suite.tests.map((t) => ({ ...t, run: 'sh "$TANDEM_HIDDEN/check.sh"' })),
  };
});

afterAll(async () => {
  for (const w of workers) {
    const pid = w.child.pid!;
    await w.kill();
    for (const c of await containersOf(pid)) await docker.getContainer(c.Id).remove({ force: true });
  }
  await db?.drop();
  if (root) await removeTempDir(root);
});

function worker(hostId: string): WorkerProcess {
  const dir = path.join(root, `work-${hostId}`);
  const w = startWorker({
    databaseUrl: db.url,
    hostId,
    cacheDir: path.join(root, `cache-${hostId}`),
    sandbox: 'docker',
    env: { TANDEM_WORK_DIR: dir },
  });
  workers.push(w);
  return w;
}

describe('tandem worker --sandbox docker', () => {
  it("retries a killed worker's job elsewhere and removes its container; the evaluation completes", async () => {
    await mkdir(path.join(root, 'work-a'));
    await mkdir(path.join(root, 'work-b'));
    const executor = new WorkersExecutor({
      databaseUrl: db.url,
      fallback: { run: () => Promise.reject(new Error('not a workers evaluation')) },
      leaseSeconds: 3,
      maintenanceSeconds: 1,
      log: { warn: () => {} },
    });
    try {
      const a = worker('a');
      const started = containerStarted(a.child.pid!);
      const evaluating = executor.run(world.spec, new AbortController().signal);
      const held = await started;
      await a.kill();
      // Docker's daemon keeps the container running after its owner's death.
      expect((await docker.getContainer(held.id).inspect()).State.Running).toBe(true);
      // Started in its place (as systemd would on a's host), b removes it before taking a job.
      const b = worker('b');
      await b.line((l) => l.includes('taking jobs'));
      expect(await containersOf(a.child.pid!)).toEqual([]);
      const report = await evaluating;

      expect(report.verdict.resolved).toBe(true);
      expect(report.infraErrors).toEqual([]);
      expect(report.configurations.map((c) => [c.id, c.outcome]).sort()).toEqual([
        ['base', 'fail'],
        ['full', 'pass'],
      ]);
      expect(a.lines.some((l) => l.includes('reported'))).toBe(false);
      expect(
        b.lines.some(
          (l) => l.includes(`configuration ${held.configuration} of evaluation`) && l.includes('reported'),
        ),
      ).toBe(true);
    } finally {
      await executor.close();
    }
  }, 180_000);
});
