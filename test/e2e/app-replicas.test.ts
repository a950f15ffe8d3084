/**
 * Two App replicas (real servers over HTTP, each with its own data folder, as on two hosts)
 * sharing one PostgreSQL database of the test's own, against the GitHub stand-in (issue 27,
 * items 1 and 2): GitHub's delivery reaching both is handled once; deliveries of one linked set
 * reaching different replicas evaluate the set one run at a time. Either way each member gets one
 * `Tandem` check and one sticky comment.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Executor, LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import { type AppServer, startAppServer } from '../../src/app/server.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.ts';
import { stubReport } from '../support/stub-executor.ts';
import { createWebhookSender } from '../support/webhook-sender.ts';
import {
  API_OK,
  openPull,
  SCHEMA_OK,
  SECRET,
  stickyComments,
  tandemChecks,
  until,
  useWorld,
  type World,
} from './app-harness.ts';

/** The stub's verdicts, counting runs at once; `hold` keeps the first run until `release`. */
class CountingExecutor implements Executor {
  running = 0;
  maxRunning = 0;
  started = 0;
  release: () => void = () => {};
  private readonly held: Promise<void>;
  private firstStarted: () => void = () => {};
  readonly first = new Promise<void>((ok) => (this.firstStarted = ok));

  constructor(hold = false) {
    this.held = hold ? new Promise<void>((ok) => (this.release = ok)) : Promise.resolve();
  }

  async run(spec: LinkedChangeSpec): Promise<Report> {
    this.running += 1;
    this.started += 1;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    try {
      if (this.started === 1) {
        this.firstStarted();
        await this.held;
      }
      return stubReport(spec, 'pass');
    } finally {
      this.running -= 1;
    }
  }
}

const startWorld = useWorld();
const APP_PROCESS = fileURLToPath(new URL('../support/app-process.ts', import.meta.url));
let database: TestDatabase | undefined;
let replicaB: AppServer | undefined;
afterEach(async () => {
  await replicaB?.close().catch(() => {});
  replicaB = undefined;
});
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

/** Replica A (the world's App) and replica B, both on one new PostgreSQL database. */
async function twoReplicas(executor: Executor): Promise<{ w: World; a: AppServer; b: AppServer }> {
  database = await createTestDatabase();
  const w = await startWorld({ executor, env: { DATABASE_URL: database.url } });
  replicaB = await startAppServer({
    env: { ...w.env, TANDEM_DATA_DIR: join(w.root, 'data-b') },
    executor,
  });
  return { w, a: w.app, b: replicaB };
}

/** Both replicas' debounce windows end, and both finish what they hold. */
async function settleBoth(a: AppServer, b: AppServer): Promise<void> {
  await Promise.all([a.service.idle({ flush: true }), b.service.idle({ flush: true })]);
}

function pullPayload(w: World, repo: string) {
  return {
    pullRequest: w.standIn.pullRequest('acme', repo, 1) as unknown as Record<string, unknown>,
    repository: w.standIn.repository('acme', repo) as unknown as Record<string, unknown>,
    installationId: w.installationId,
  };
}

function expectOneCheckAndComment(w: World, heads: Record<'schema' | 'api', string>): void {
  for (const repo of ['schema', 'api'] as const) {
    expect(tandemChecks(w, repo, heads[repo]).map((c) => [c.status, c.conclusion])).toEqual([
      ['completed', 'success'],
    ]);
    expect(stickyComments(w, repo, 1)).toHaveLength(1);
  }
}

describe('App replicas on one PostgreSQL database', () => {
  it('handles the same signed delivery sent to two replicas at once exactly once', async () => {
    const executor = new CountingExecutor();
    const { w, a, b } = await twoReplicas(executor);
    const schema = await openPull(w, 'schema', SCHEMA_OK, 'Depends-On: acme/api#1');
    const api = await openPull(w, 'api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    const toA = createWebhookSender({ url: `${a.url}/api/github/webhooks`, secret: SECRET });
    const toB = createWebhookSender({ url: `${b.url}/api/github/webhooks`, secret: SECRET });
    for (const repo of ['schema', 'api']) {
      const deliveryId = `delivery-${repo}`;
      const answers = await Promise.all([
        toA.pullRequest('opened', pullPayload(w, repo), { deliveryId }),
        toB.pullRequest('opened', pullPayload(w, repo), { deliveryId }),
      ]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
    }
    await settleBoth(a, b);
    await until(
      w,
      () => tandemChecks(w, 'api', api.head.sha)[0]?.status === 'completed',
      'the check completes',
    );
    expect(executor.started).toBe(1);
    const evaluations = await a.service.store.evaluations.unfinished();
    expect(evaluations).toEqual([]);
    expectOneCheckAndComment(w, { schema: schema.head.sha, api: api.head.sha });
  });

  it('evaluates a set one run at a time when its members reach different replicas', async () => {
    const executor = new CountingExecutor(true);
    const { w, a, b } = await twoReplicas(executor);
    const schema = await openPull(w, 'schema', SCHEMA_OK, 'Depends-On: acme/api#1');
    const api = await openPull(w, 'api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    const toA = createWebhookSender({ url: `${a.url}/api/github/webhooks`, secret: SECRET });
    const toB = createWebhookSender({ url: `${b.url}/api/github/webhooks`, secret: SECRET });
    await toA.pullRequest('opened', pullPayload(w, 'schema'));
    await toB.pullRequest('opened', pullPayload(w, 'api'));
    a.service.flush();
    b.service.flush();
    await executor.first;
    // Both replicas have asked for the set: B's request found A's row queued and reused it (the
    // database keeps one queued row per set), so one evaluation is stored, and it runs once.
    expect((await a.service.store.evaluations.unfinished()).map((e) => e.state)).toEqual(['running']);
    executor.release();
    await settleBoth(a, b);
    await until(
      w,
      () => tandemChecks(w, 'api', api.head.sha)[0]?.status === 'completed',
      'the check completes',
    );
    expect(executor.maxRunning).toBe(1);
    expectOneCheckAndComment(w, { schema: schema.head.sha, api: api.head.sha });
  });

  it("takes over a killed replica's evaluation once its lease expires", async () => {
    const executor = new CountingExecutor();
    database = await createTestDatabase();
    // Short enough to take over soon, long enough that a busy machine's event-loop lag (renewals
    // every third of it) does not make the live replica lose its own leases.
    const lease = { TANDEM_LEASE_MS: '3000' };
    const w = await startWorld({ executor, env: { DATABASE_URL: database.url, ...lease } });
    const schema = await openPull(w, 'schema', SCHEMA_OK, '');
    // Replica A, a process of its own, dies (exit 137, as after SIGKILL) right after its first
    // check-run creation: it has stored and owns the evaluation, which never ran there.
    const child = spawn(process.execPath, ['--import', 'tsx', APP_PROCESS], {
      env: {
        ...w.env,
        PATH: process.env.PATH,
        TANDEM_DATA_DIR: join(w.root, 'data-a'),
        TANDEM_TEST_EXIT_AFTER_CHECK_CREATE: '1',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    const exited = once(child, 'exit');
    const toA = createWebhookSender({
      url: `${(JSON.parse(line) as { url: string }).url}/api/github/webhooks`,
      secret: SECRET,
    });
    await toA.pullRequest('opened', pullPayload(w, 'schema')).catch(() => undefined);
    expect(((await exited) as [number | null])[0]).toBe(137);
    const store = w.app.service.store;
    // Replica B (the world's App, same database, sent no webhook) adopts it at its sweep once A's
    // lease expired (maybe already: its sweep runs every lease period).
    await until(
      w,
      () => tandemChecks(w, 'schema', schema.head.sha).some((c) => c.status === 'completed'),
      'adopted and run',
    );
    await w.app.service.idle();
    expect(executor.started).toBe(1);
    expect(await store.evaluations.unfinished()).toEqual([]);
  });
});
