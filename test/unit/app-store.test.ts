/**
 * The App's store tables on both backends (a real SQLite file, a real PostgreSQL database of the
 * test's own): a PR's body links replaced on each upsert while `/tandem link` ones stay, reverse
 * lookups, unlinked pairs; check runs per head (claimed, completed, found by id); deliveries seen
 * once, also when two stores on one database claim the same delivery at once; hand-offs kept
 * with their run. Data survives closing and reopening.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/app/store/store.ts';
import type { PullRef } from '../../src/core/pull-ref.ts';
import { runningEvaluation, STORE_BACKENDS, type TempStore, useTempStore } from './app-fixtures.ts';

async function open(temp: TempStore): Promise<{ s: Store; reopen: () => Promise<Store> }> {
  let current = await temp.open();
  return {
    s: current,
    reopen: async () => {
      await current.close();
      current = await temp.open();
      return current;
    },
  };
}

const ref = (repo: string, number: number): PullRef => ({ owner: 'acme', repo, number });
const SHA = 'c'.repeat(40);

function upsert(s: Store, links: PullRef[], state: 'open' | 'closed' = 'open') {
  return s.pulls.upsert({
    ...ref('api', 1),
    installationId: 3,
    state,
    headSha: SHA,
    headRef: 'feature',
    baseRef: 'main',
    links,
  });
}

describe.each(STORE_BACKENDS)('store tables on %s', (backend) => {
  const temp = useTempStore('tandem-store-', backend);

  describe('pulls and links', () => {
    it('replaces body links on each upsert, keeps command links, answers reverse lookups', async () => {
      const { s, reopen } = await open(temp);
      await upsert(s, [ref('schema', 1), ref('web', 2)]);
      await s.links.addManual('acme/api#1', 'acme/docs#4', 'acme/api#1 acme/docs#4', 'alice');
      expect(await s.links.to('acme/schema#1')).toEqual(['acme/api#1']);
      await upsert(s, [ref('schema', 1)], 'closed');
      const r = await reopen();
      expect(await r.pulls.get('acme/api#1')).toMatchObject({
        state: 'closed',
        headRef: 'feature',
        installationId: 3,
      });
      expect((await r.links.from('acme/api#1')).map((l) => `${l.repo}#${l.number}`).sort()).toEqual([
        'docs#4',
        'schema#1',
      ]);
      expect(await r.links.to('acme/web#2')).toEqual([]);
    });

    it('unlink removes command links both ways and remembers the pair; a new link forgets it', async () => {
      const { s } = await open(temp);
      await s.links.addManual('acme/api#1', 'acme/web#2', 'acme/api#1 acme/web#2', 'alice');
      await s.links.addManual('acme/web#2', 'acme/api#1', 'acme/api#1 acme/web#2', 'alice');
      await s.links.remove('acme/api#1', 'acme/web#2', 'acme/api#1 acme/web#2');
      expect(await s.links.from('acme/api#1')).toEqual([]);
      expect(await s.links.from('acme/web#2')).toEqual([]);
      expect(await s.links.unlinkedPairs()).toEqual(new Set(['acme/api#1 acme/web#2']));
      await s.links.addManual('acme/api#1', 'acme/web#2', 'acme/api#1 acme/web#2', 'alice');
      expect(await s.links.unlinkedPairs()).toEqual(new Set());
    });

    it('lists open PRs of an installation by head branch', async () => {
      const { s } = await open(temp);
      await upsert(s, []);
      expect((await s.pulls.withHeadRef(3, 'feature')).map((p) => p.key)).toEqual(['acme/api#1']);
      expect(await s.pulls.withHeadRef(4, 'feature')).toEqual([]);
      await upsert(s, [], 'closed');
      expect(await s.pulls.withHeadRef(3, 'feature')).toEqual([]);
    });
  });

  describe('check runs, deliveries and hand-offs', () => {
    it('keeps one check run per head: saved, claimed, completed, found by id', async () => {
      const { s, reopen } = await open(temp);
      await s.checkRuns.save({ pullKey: 'acme/api#1', headSha: SHA, checkRunId: 11, evaluationId: null });
      await s.checkRuns.claim('acme/api#1', SHA, 5);
      expect(await s.checkRuns.open('acme/api#1')).toEqual([
        { pullKey: 'acme/api#1', headSha: SHA, checkRunId: 11, evaluationId: 5, completed: false },
      ]);
      await s.checkRuns.complete('acme/api#1', SHA);
      const r = await reopen();
      expect(await r.checkRuns.open('acme/api#1')).toEqual([]);
      expect(await r.checkRuns.byId(11)).toMatchObject({ completed: true, evaluationId: 5 });
      // A new check run for the same head (a re-run) reopens the row.
      await r.checkRuns.save({ pullKey: 'acme/api#1', headSha: SHA, checkRunId: 12, evaluationId: 6 });
      expect(await r.checkRuns.get('acme/api#1', SHA)).toMatchObject({ checkRunId: 12, completed: false });
    });

    it('claims a delivery for one of two stores sharing the database, when both claim it at once', async () => {
      // Two App processes on one database (replicas on PostgreSQL; two processes on one file):
      // GitHub's delivery reaching both makes one claim, whatever the interleaving.
      const a = await temp.open();
      const b = await temp.open();
      for (let i = 0; i < 20; i++) {
        const claims = await Promise.all([
          a.deliveries.claim(`d${i}`, 'pull_request', `pr-${i}`),
          b.deliveries.claim(`d${i}`, 'pull_request', `pr-${i}`),
        ]);
        expect(claims.filter(Boolean)).toHaveLength(1);
      }
      // The same payload under a fresh delivery id (a replay) is not claimed either.
      expect(await b.deliveries.claim('d-replayed', 'pull_request', 'pr-3')).toBe(false);
    });

    it('claims a delivery once, and forgets old ones when pruned', async () => {
      const { s } = await open(temp);
      expect(await s.deliveries.claim('d1', 'pull_request')).toBe(true);
      expect(await s.deliveries.claim('d1', 'pull_request')).toBe(false);
      await s.deliveries.prune(-1_000);
      expect(await s.deliveries.claim('d1', 'pull_request')).toBe(true);
    });

    it('keeps a hand-off and the run recorded for it', async () => {
      const { s, reopen } = await open(temp);
      // A run is recorded only while its evaluation runs.
      const id = await runningEvaluation(s);
      const dispatchedAt = Date.now();
      await s.handoffs.save({
        evaluationId: id,
        evaluator: 'acme/suites',
        workflow: 'tandem.yml',
        heads: [`acme/api#1@${SHA}`],
        dispatchedAt,
      });
      await s.handoffs.recordRun(id, dispatchedAt, {
        id: 77,
        url: 'https://x/runs/77',
        status: 'completed',
        conclusion: 'success',
      } as Parameters<Store['handoffs']['recordRun']>[2]);
      const r = await reopen();
      expect(await r.handoffs.get(id)).toMatchObject({
        evaluator: 'acme/suites',
        heads: [`acme/api#1@${SHA}`],
        run: { id: 77, url: 'https://x/runs/77', status: 'completed', conclusion: 'success' },
      });
      await r.handoffs.delete(id);
      expect(await r.handoffs.get(id)).toBeUndefined();
    });
  });
});
