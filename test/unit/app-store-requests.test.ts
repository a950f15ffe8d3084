/**
 * Requests stored across replicas (issue 27, item 2) on both backends, two stores on one database
 * standing for two replicas: a transaction commits a delivery's claim, its PR and its queued
 * evaluation together or not at all; the database keeps one queued evaluation per set whoever
 * asks; merge holds and the requests held meanwhile are rows with an expiry; an evaluation is
 * stale once a newer one was asked for by one of its members.
 */
import { describe, expect, it } from 'vitest';
import { EvaluationRequests } from '../../src/app/evaluation-requests.ts';
import { OrgConfigCache } from '../../src/app/evaluations/org-config-cache.ts';
import type { Transition } from '../../src/app/store/evaluation-states.ts';
import { openPostgres } from '../../src/app/store/postgres-driver.ts';
import { openSqlite } from '../../src/app/store/sqlite-driver.ts';
import type { Store } from '../../src/app/store/store.ts';
import { migrate, SCHEMA_VERSION } from '../../src/app/store/store-schema.ts';
import { POSTGRES_SCHEMA_VERSION } from '../../src/app/store/store-schema-postgres.ts';
import { STORE_BACKENDS, useTempStore } from './app-fixtures.ts';

const row = (setKey: string, seed = setKey) => ({ setKey, seed, installationId: 1, matrix: null });

function upsertPull(s: Store, repo: string) {
  return s.pulls.upsert({
    owner: 'acme',
    repo,
    number: 1,
    installationId: 1,
    state: 'open',
    headSha: 'a'.repeat(40),
    headRef: 'feature',
    baseRef: 'main',
    links: [{ owner: 'acme', repo: 'schema', number: 1 }],
  });
}

describe.each(STORE_BACKENDS)('requests stored across replicas on %s', (backend) => {
  const temp = useTempStore('tandem-requests-', backend);

  it('commits a delivery, its PR and its queued evaluation together, or none of them', async () => {
    const s = await temp.open();
    const announced: Transition[] = [];
    s.evaluations.on('transition', (t) => announced.push(t));
    const deliver = (fault: boolean) =>
      s.transaction(async (tx) => {
        expect(await tx.deliveries.claim('d1', 'pull_request', 'pr-1')).toBe(true);
        await upsertPull(tx, 'api');
        const queued = await tx.evaluations.queue(row('acme/api#1'));
        // A kill between the claim and the rest, as the database sees it: the transaction never commits.
        if (fault) throw new Error('killed');
        return queued;
      });
    await expect(deliver(true)).rejects.toThrow('killed');
    expect(await s.deliveries.seen('d1')).toBe(false);
    expect(await s.pulls.get('acme/api#1')).toBeUndefined();
    expect(await s.links.to('acme/schema#1')).toEqual([]);
    expect(await s.evaluations.unfinished()).toEqual([]);
    expect(announced).toEqual([]);
    const { id, created } = await deliver(false);
    expect(created).toBe(true);
    expect(await s.deliveries.seen('other', 'pr-1')).toBe(true);
    expect(await s.links.to('acme/schema#1')).toEqual(['acme/api#1']);
    expect((await s.evaluations.unfinished()).map((e) => [e.id, e.state])).toEqual([[id, 'queued']]);
    // Announced once committed, on the store the transaction came from.
    expect(announced).toEqual([{ id, from: undefined, to: 'queued' }]);
  });

  it('keeps one queued evaluation per set when two replicas ask at once; a running one does not count', async () => {
    const a = await temp.open();
    const b = await temp.open();
    for (let i = 0; i < 10; i++) {
      const both = await Promise.all([
        a.transaction((tx) => tx.evaluations.queue(row(`acme/api#${i}`))),
        b.transaction((tx) =>
          tx.evaluations.queue({ ...row(`acme/api#${i}`, 'acme/web#1'), matrix: 'full', fresh: true }),
        ),
      ]);
      expect(new Set(both.map((q) => q.id)).size).toBe(1);
      expect(both.filter((q) => q.created)).toHaveLength(1);
    }
    const { id } = await a.evaluations.queue(row('acme/api#0'));
    // What the second request asked for (its matrix, `--fresh`) folded into the waiting row.
    expect(await a.evaluations.asked(id)).toEqual({ matrix: 'full', fresh: true });
    await a.evaluations.start(id);
    const next = await b.evaluations.queue(row('acme/api#0'));
    expect(next).toEqual({ id: expect.any(Number), created: true });
    expect(next.id).toBeGreaterThan(id);
    // A row written around `queue` still cannot make a second queued row of the set.
    await expect(a.evaluations.create(row('acme/api#0'))).rejects.toThrow();
  });

  it('migrates two queued evaluations of one set an older version left into one', async () => {
    const target = await temp.target();
    const old = backend === 'sqlite' ? await openSqlite(target) : await openPostgres(target);
    await migrate(old, (backend === 'sqlite' ? SCHEMA_VERSION : POSTGRES_SCHEMA_VERSION) - 1);
    for (const at of [1, 2])
      await old.run(
        `INSERT INTO evaluations (set_key, seed, installation_id, state, matrix, created_at, updated_at)
         VALUES ('acme/api#1', 'acme/api#1', 1, 'queued', NULL, ?, ?)`,
        [at, at],
      );
    await old.close();
    const s = await temp.open();
    const rows = await s.evaluations.unfinished();
    expect(rows.map((e) => e.state)).toEqual(['queued']);
    expect(await s.evaluations.queue(row('acme/api#1'))).toEqual({ id: rows[0]!.id, created: false });
  });

  it('holds a merging member for its holder; a request meanwhile is held, and taken when the merge ends', async () => {
    const a = await temp.open();
    const b = await temp.open();
    expect(await a.mergeHolds.hold(['acme/api#1', 'acme/schema#1'], 'replica-a', 60_000)).toEqual([
      'acme/api#1',
      'acme/schema#1',
    ]);
    // Another replica (or another merge here) cannot hold them meanwhile.
    expect(await b.mergeHolds.hold(['acme/api#1'], 'replica-b', 60_000)).toEqual([]);
    expect(await b.mergeHolds.isHeld('acme/api#1')).toBe(true);
    await b.mergeHolds.holdRequest({ seed: 'acme/api#1', installationId: 1, matrix: 'full', fresh: false });
    await b.mergeHolds.holdRequest({ seed: 'acme/api#1', installationId: 1, matrix: null, fresh: true });
    // Held by a live merge: no sweep takes it.
    expect(await b.mergeHolds.orphaned()).toEqual([]);
    expect(await a.mergeHolds.release(['acme/api#1', 'acme/schema#1'], 'replica-a')).toEqual([
      { seed: 'acme/api#1', installationId: 1, matrix: 'full', fresh: true },
    ]);
    expect(await b.mergeHolds.isHeld('acme/api#1')).toBe(false);
  });

  it("takes a dead merge's held requests once its hold expired; one process alone ends every other hold", async () => {
    const a = await temp.open();
    const now = Date.now();
    await a.mergeHolds.hold(['acme/api#1'], 'replica-dead', 1_000, now);
    await a.mergeHolds.holdRequest({ seed: 'acme/api#1', installationId: 1, matrix: null, fresh: false });
    expect(await a.mergeHolds.orphaned({ now })).toEqual([]);
    expect(await a.mergeHolds.orphaned({ now: now + 1_000 })).toEqual([
      { seed: 'acme/api#1', installationId: 1, matrix: null, fresh: false },
    ]);
    // Taken once: a second sweep (another replica's) finds nothing.
    expect(await a.mergeHolds.orphaned({ now: now + 1_000 })).toEqual([]);
    await a.mergeHolds.hold(['acme/web#1'], 'previous-process', 60_000);
    await a.mergeHolds.holdRequest({ seed: 'acme/web#1', installationId: 1, matrix: null, fresh: false });
    expect(await a.mergeHolds.orphaned({ exceptHolder: 'this-process' })).toHaveLength(1);
    expect(await a.mergeHolds.hold(['acme/web#1'], 'this-process', 60_000)).toEqual(['acme/web#1']);
  });

  it('makes a running evaluation stale once one of its members asks for a newer one, whatever set it names', async () => {
    const s = await temp.open();
    const running = await s.evaluations.create(row('acme/api#1'));
    await s.evaluations.start(running);
    await s.evaluations.setMembers(running, [
      { key: 'acme/api#1', headSha: 'a'.repeat(40) },
      { key: 'acme/schema#1', headSha: 'b'.repeat(40) },
    ]);
    const unrelated = await s.evaluations.create(row('acme/web#1'));
    expect(await s.evaluations.newerUnfinished('acme/api#1', running)).toBe(false);
    // acme/api#1 closed: the set goes on as acme/schema#1's, named differently.
    await s.evaluations.create(row('acme/schema#1'));
    expect(await s.evaluations.newerUnfinished('acme/api#1', running)).toBe(true);
    expect(await s.evaluations.newerUnfinished('acme/web#1', unrelated)).toBe(false);
  });

  it("debounces a set's queued row across replicas: a request folded in at another moves its last-asked time", async () => {
    const a = await temp.open();
    const b = await temp.open();
    const { id } = await a.transaction((tx) => tx.evaluations.queue(row('acme/api#1')));
    const first = await a.evaluations.lastAskedAt(id);
    expect(first).toEqual(expect.any(Number));
    // Later, at another replica (a member's delivery there): folded into the row, its time moves.
    let folded: number | undefined;
    do {
      await b.transaction((tx) => tx.evaluations.queue(row('acme/api#1', 'acme/web#1')));
      folded = await a.evaluations.lastAskedAt(id);
    } while (folded === first);
    expect(folded).toBeGreaterThan(first!);
    await a.evaluations.start(id);
    // Running: no window any more.
    expect(await a.evaluations.lastAskedAt(id)).toBeUndefined();
  });

  it('a request that creates a set row takes its lease in the same transaction (no sweep adopts it first)', async () => {
    const a = await temp.open();
    const sweep = await temp.open();
    const intake = new EvaluationRequests({
      store: a,
      configs: new OrgConfigCache({ ttlMs: 60_000 }),
      holder: 'replica-a',
      holdMs: 60_000,
      ownCreatedMs: 60_000,
      log: { warn: () => {} },
    });
    const stored = await a.transaction((tx) => intake.store(tx, 'acme/api#1', 1, {}, ['acme/api#1']));
    expect(stored).toMatchObject({ kind: 'queued', created: true });
    const id = stored.kind === 'queued' ? stored.item.evaluationId : -1;
    // Visible to another replica's sweep only with its owner's lease (`evaluation:<id>`): it cannot take it.
    expect((await sweep.leases.current(`evaluation:${id}`))?.holder).toBe('replica-a');
    expect(await sweep.leases.acquire(`evaluation:${id}`, 'replica-b', 60_000)).toBe(false);
  });
});
