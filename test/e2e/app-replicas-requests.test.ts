/**
 * Requests across App replicas (issue 27, item 2): real App servers over HTTP on one PostgreSQL
 * database of the test's own (and one App on the embedded store), against the GitHub stand-in. A delivery's claim, facts and queued
 * evaluation commit together (a fault inside leaves it to be delivered again, then evaluated
 * once); deliveries of one set at two replicas make one evaluation row; a request reaching one
 * replica while the other merges the set is held, then run once (by a sweep when the merging
 * replica died); and a change on one replica
 * stops the other's run of the set, even when the change names the set differently.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Executor, LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import { type AppServer, startAppServer } from '../../src/app/server.ts';
import { PullsTable } from '../../src/app/store/store-pulls.ts';
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

/** Passing verdicts; with `holdFirst` the first run waits until it is aborted (a newer change). */
class Executions implements Executor {
  started = 0;
  private firstStarted: () => void = () => {};
  readonly first = new Promise<void>((ok) => (this.firstStarted = ok));

  constructor(private readonly holdFirst = false) {}

  async run(spec: LinkedChangeSpec, signal: AbortSignal): Promise<Report> {
    this.started += 1;
    if (this.started === 1) {
      this.firstStarted();
      if (this.holdFirst)
        await new Promise((_ok, fail) =>
          signal.addEventListener('abort', () => fail(signal.reason), { once: true }),
        );
    }
    return stubReport(spec, 'pass');
  }
}

let database: TestDatabase | undefined;
// Registered first, so run last (after hooks run in reverse): once both replicas are closed.
afterEach(async () => {
  await database?.drop();
  database = undefined;
});
const startWorld = useWorld();
let replicaB: AppServer | undefined;
const restore: Array<() => void> = [];
afterEach(async () => {
  for (const r of restore.splice(0)) r();
  await replicaB?.close().catch(() => {});
  replicaB = undefined;
});

async function twoReplicas(executor: Executor, env: Record<string, string> = {}) {
  database = await createTestDatabase();
  const w = await startWorld({ executor, env: { DATABASE_URL: database.url, ...env } });
  replicaB = await startAppServer({ env: { ...w.env, TANDEM_DATA_DIR: join(w.root, 'data-b') }, executor });
  const sender = (app: AppServer) =>
    createWebhookSender({ url: `${app.url}/api/github/webhooks`, secret: SECRET });
  return { w, a: w.app, b: replicaB, toA: sender(w.app), toB: sender(replicaB) };
}

/** One App on the embedded store (SQLite), as on one host. */
async function oneEmbedded(executor: Executor) {
  const w = await startWorld({ executor });
  return {
    w,
    a: w.app,
    toA: createWebhookSender({ url: `${w.app.url}/api/github/webhooks`, secret: SECRET }),
  };
}

function pullPayload(w: World, repo: string) {
  return {
    pullRequest: w.standIn.pullRequest('acme', repo, 1) as unknown as Record<string, unknown>,
    repository: w.standIn.repository('acme', repo) as unknown as Record<string, unknown>,
    installationId: w.installationId,
  };
}

/** Every evaluation row the replicas stored, in order. */
async function evaluationRows(app: AppServer): Promise<Array<{ id: number; state: string }>> {
  return (await app.service.store.db.all('SELECT id, state FROM evaluations ORDER BY id')) as Array<{
    id: number;
    state: string;
  }>;
}

async function settleBoth(a: AppServer, b: AppServer): Promise<void> {
  await Promise.all([a.service.idle({ flush: true }), b.service.idle({ flush: true })]);
}

async function openLinkedPair(w: World) {
  const schema = await openPull(w, 'schema', SCHEMA_OK, 'Depends-On: acme/api#1');
  const api = await openPull(w, 'api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
  return { schema, api };
}

describe('requests across App replicas on one PostgreSQL database', () => {
  it.each(['postgres', 'sqlite'])(
    'a fault between the claim and the rest commits nothing (%s): delivered again, it is evaluated once',
    async (backend) => {
      const executor = new Executions();
      const { w, a, toA } =
        backend === 'postgres' ? await twoReplicas(executor) : await oneEmbedded(executor);
      const schema = await openPull(w, 'schema', SCHEMA_OK, '');
      // The fault: the second recording of the PR in its delivery throws (the first is the one made
      // before the claim, for consent), as a kill between claiming the delivery and recording it.
      const upsert = PullsTable.prototype.upsert;
      let recorded = 0;
      PullsTable.prototype.upsert = function (this: PullsTable, pull) {
        if (pull.repo === 'schema' && ++recorded === 2) throw new Error('killed between claim and record');
        return upsert.call(this, pull);
      };
      restore.push(() => {
        PullsTable.prototype.upsert = upsert;
      });
      const deliveryId = 'delivery-killed';
      const first = await toA.pullRequest('opened', pullPayload(w, 'schema'), { deliveryId });
      expect(first.status).toBeGreaterThanOrEqual(500);
      expect(recorded).toBeGreaterThanOrEqual(2);
      // GitHub redelivers (same id): it was never claimed, so it is done now, whole.
      const again = await toA.pullRequest('opened', pullPayload(w, 'schema'), { deliveryId });
      expect(again.status).toBe(200);
      await a.service.idle({ flush: true });
      expect(executor.started).toBe(1);
      expect(await evaluationRows(a)).toEqual([{ id: expect.any(Number), state: 'published' }]);
      expect(tandemChecks(w, 'schema', schema.head.sha).map((c) => c.status)).toEqual(['completed']);
    },
  );

  it('deliveries of one set at two replicas make one evaluation row, run once', async () => {
    const executor = new Executions();
    const { w, a, b, toA, toB } = await twoReplicas(executor);
    const { schema, api } = await openLinkedPair(w);
    expect((await toA.pullRequest('opened', pullPayload(w, 'schema'))).status).toBe(200);
    expect((await toB.pullRequest('opened', pullPayload(w, 'api'))).status).toBe(200);
    // B's request found the set's row queued (A's, debouncing) and reused it.
    expect(await evaluationRows(a)).toEqual([{ id: expect.any(Number), state: 'queued' }]);
    await settleBoth(a, b);
    await until(w, () => tandemChecks(w, 'api', api.head.sha)[0]?.status === 'completed', 'api checked');
    expect(executor.started).toBe(1);
    expect(await evaluationRows(a)).toEqual([{ id: expect.any(Number), state: 'published' }]);
    for (const [repo, sha] of [
      ['schema', schema.head.sha],
      ['api', api.head.sha],
    ] as const) {
      expect(tandemChecks(w, repo, sha).map((c) => c.conclusion)).toEqual(['success']);
      expect(stickyComments(w, repo, 1)).toHaveLength(1);
    }
  });

  it('a request at one replica while the other merges the set is held, then run once the merge ends', async () => {
    const executor = new Executions();
    const { w, a, b, toB } = await twoReplicas(executor);
    const { api } = await openLinkedPair(w);
    const members = ['acme/api#1', 'acme/schema#1'];
    await a.service.whileMerging(members, async () => {
      // A merged member's webhook reaches B: re-evaluating now would put the checks back to queued.
      expect((await toB.pullRequest('opened', pullPayload(w, 'api'))).status).toBe(200);
      await b.service.idle({ flush: true });
      expect(await evaluationRows(a)).toEqual([]);
      expect(executor.started).toBe(0);
    });
    // A's merge ended: it asked what B held, once.
    await settleBoth(a, b);
    await until(w, () => tandemChecks(w, 'api', api.head.sha)[0]?.status === 'completed', 'api checked');
    expect(executor.started).toBe(1);
    expect(await evaluationRows(a)).toEqual([{ id: expect.any(Number), state: 'published' }]);
  });

  it('a request held for a replica that died mid-merge is asked by a sweep once the hold expired', async () => {
    const executor = new Executions();
    const { w, a, b, toB } = await twoReplicas(executor, { TANDEM_LEASE_MS: '600' });
    const { api } = await openLinkedPair(w);
    // A replica took the hold and died: it renews nothing and will never ask what was held.
    await a.service.store.mergeHolds.hold(['acme/api#1', 'acme/schema#1'], 'replica-dead', 3_000);
    const stored = new Promise<void>((ok) => {
      for (const app of [a, b]) app.service.store.evaluations.once('transition', () => ok());
    });
    expect((await toB.pullRequest('opened', pullPayload(w, 'api'))).status).toBe(200);
    expect(await evaluationRows(a)).toEqual([]);
    // A live replica's sweep finds the hold expired and asks the request.
    await stored;
    await settleBoth(a, b);
    await until(w, () => tandemChecks(w, 'api', api.head.sha)[0]?.status === 'completed', 'api checked');
    expect(executor.started).toBe(1);
    expect(await evaluationRows(a)).toEqual([{ id: expect.any(Number), state: 'published' }]);
  });

  it("a change at one replica stops the other's run of the set, also when it names the set anew", async () => {
    const executor = new Executions(true);
    const { w, a, b, toA, toB } = await twoReplicas(executor, { TANDEM_LEASE_MS: '600' });
    await openLinkedPair(w);
    await toA.pullRequest('opened', pullPayload(w, 'schema'));
    await toA.pullRequest('opened', pullPayload(w, 'api'));
    a.service.flush();
    await executor.first;
    const [running] = await evaluationRows(a);
    expect(running?.state).toBe('running');
    // acme/api#1 closes at B: the set goes on as acme/schema#1's (its name was acme/api#1's).
    w.standIn.updatePullRequest('acme', 'api', 1, { state: 'closed' });
    expect((await toB.pullRequest('closed', pullPayload(w, 'api'))).status).toBe(200);
    // A's run is stale: aborted at its lease's next renewal, not published.
    expect(await a.service.store.evaluations.reached(running!.id)).toBe('superseded');
    await settleBoth(a, b);
    expect(executor.started).toBe(2);
  });
});
