/**
 * `executor: workers` affinity, on real PostgreSQL with two workers in this process (the same
 * worker loop and engine path as `tandem worker`, the development process sandbox): once a host
 * ran an evaluation of some repositories, the next evaluation of them goes to that host's queue
 * first while it has free slots, and the other worker takes none of it within the grace; once that
 * host is gone (it left), the jobs go to the shared queue and the other worker runs them. While
 * that host is busy, its affinity makes no idle worker wait: the jobs go to the shared queue. A job whose payload is not a
 * configuration job is refused by the worker (zod), naming the field.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkersExecutor } from '../../src/app/executors/workers-executor.ts';
import { JOBS_CHANNEL, SHARED_QUEUE } from '../../src/core/worker-job.schema.ts';
import { openJobQueue } from '../../src/engine/workers/job-queue.ts';
import { engineRunner } from '../../src/engine/workers/run-job.ts';
import { runWorker } from '../../src/engine/workers/worker.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';
import { type WorkerPoolCase, workerPoolCase } from '../helpers/worker-pool-case.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/worker-pool-db.ts';

let db: TestDatabase;
let root: string;
let world: WorkerPoolCase;

interface InProcessWorker {
  lines: string[];
  /** Resolves with the next line logged that matches. */
  next(match: (line: string) => boolean): Promise<string>;
  /** Resolves once it takes jobs. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

const running: InProcessWorker[] = [];

/** Holds every configuration a worker starts while armed, until released (an event, not a time). */
class Hold {
  private armed = false;
  private open!: () => void;
  private readonly released = new Promise<void>((r) => {
    this.open = r;
  });
  arm() {
    this.armed = true;
  }
  release() {
    this.open();
  }
  wait(signal: AbortSignal): Promise<void> {
    if (!this.armed) return Promise.resolve();
    return new Promise((resolve, reject) => {
      void this.released.then(resolve);
      signal.addEventListener('abort', () => reject(new Error('interrupted')));
    });
  }
}

function startWorker(hostId: string, concurrency = 1, hold?: Hold): InProcessWorker {
  const controller = new AbortController();
  const lines: string[] = [];
  const waiting: Array<{ match: (line: string) => boolean; resolve: (line: string) => void }> = [];
  let ready!: () => void;
  const readyP = new Promise<void>((r) => {
    ready = r;
  });
  const cacheDir = path.join(root, `cache-${hostId}`);
  const engine = engineRunner({ host: { cacheDir }, sandbox: 'process' });
  const done = runWorker({
    databaseUrl: db.url,
    hostId,
    concurrency,
    runner: async (input) => {
      await hold?.wait(input.signal);
      return engine(input);
    },
    scratchDir: path.join(cacheDir, 'worker'),
    signal: controller.signal,
    log: (line) => {
      lines.push(line);
      if (line.includes('taking jobs')) ready();
      for (const w of waiting.splice(0)) {
        if (w.match(line)) w.resolve(line);
        else waiting.push(w);
      }
    },
  });
  const w = {
    lines,
    next: (match: (line: string) => boolean) =>
      new Promise<string>((resolve) => waiting.push({ match, resolve })),
    ready: readyP,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
  running.push(w);
  return w;
}

/** Configurations a worker reported since `from` (an index into its lines). */
const reported = (w: InProcessWorker, from: number) =>
  w.lines.slice(from).filter((l) => l.includes(' reported in ')).length;

beforeAll(async () => {
  db = await createTestDatabase();
  root = await makeTempDir('tandem-workers-affinity-');
  world = await workerPoolCase(root);
});

afterAll(async () => {
  for (const w of running) await w.stop();
  await db?.drop();
  if (root) await removeTempDir(root);
});

describe('executor: workers affinity', () => {
  it('prefers the host holding the repositories, and falls back to the shared queue once it is gone', async () => {
    const executor = new WorkersExecutor({
      databaseUrl: db.url,
      fallback: { run: () => Promise.reject(new Error('not a workers evaluation')) },
      leaseSeconds: 60,
      graceSeconds: 600,
      log: { warn: () => {} },
    });
    const evaluate = () => executor.run(world.spec, new AbortController().signal);
    try {
      const h1 = startWorker('h1');
      await h1.ready;
      // No host holds acme/api yet: the shared queue, where only h1 takes.
      expect((await evaluate()).verdict.resolved).toBe(true);
      expect(reported(h1, 0)).toBe(2);

      const h2 = startWorker('h2');
      await h2.ready;
      // h1 holds acme/api and has two free slots: both jobs go to its queue; the shared copies
      // wait out the grace.
      await h1.stop();
      const h1b = startWorker('h1', 2);
      await h1b.ready;
      const [from1, from2] = [h1b.lines.length, h2.lines.length];
      expect((await evaluate()).verdict.resolved).toBe(true);
      expect(reported(h1b, from1)).toBe(2);
      expect(reported(h2, from2)).toBe(0);

      await h1b.stop();
      const from2b = h2.lines.length;
      // h1 left: no live host holds the repositories, so the jobs go straight to the shared queue.
      expect((await evaluate()).verdict.resolved).toBe(true);
      expect(reported(h2, from2b)).toBe(2);

      // A job whose payload is not a configuration job is refused by name, never run.
      const q = await openJobQueue({ databaseUrl: db.url });
      try {
        const refused = h2.next((l) => l.includes('refused job'));
        await q.boss.send(SHARED_QUEUE, { evaluation: 'not-a-uuid', configuration: 'full', copy: 'shared' });
        await q.db.query(`SELECT pg_notify('${JOBS_CHANNEL}', '')`);
        expect(await refused).toMatch(/refused job \S+: evaluation: /);
      } finally {
        await q.close();
      }
    } finally {
      await executor.close();
    }
  }, 120_000);

  it('lets an idle worker take the jobs while the host holding the repositories is busy', async () => {
    const executor = new WorkersExecutor({
      databaseUrl: db.url,
      fallback: { run: () => Promise.reject(new Error('not a workers evaluation')) },
      leaseSeconds: 60,
      graceSeconds: 600,
      log: { warn: () => {} },
    });
    const evaluate = () => executor.run(world.spec, new AbortController().signal);
    const hold = new Hold();
    try {
      const b1 = startWorker('b1', 1, hold);
      await b1.ready;
      // b1 ran every configuration of acme/api: it holds the repository.
      expect((await evaluate()).verdict.resolved).toBe(true);
      const b2 = startWorker('b2');
      await b2.ready;
      // b1's one slot is taken by a configuration that stays held.
      hold.arm();
      const held = b1.next((l) => l.includes(': running '));
      const first = evaluate();
      await held;
      const from1 = b1.lines.length;
      // b1 is busy: the next evaluation's jobs must not queue behind it while b2 is idle.
      expect((await evaluate()).verdict.resolved).toBe(true);
      expect(reported(b1, from1)).toBe(0);
      hold.release();
      expect((await first).verdict.resolved).toBe(true);
    } finally {
      hold.release();
      await executor.close();
    }
  }, 60_000);
});
