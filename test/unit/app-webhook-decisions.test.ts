/**
 * What the App decides when webhooks arrive, on the in-memory GitHub port: which PRs get a
 * `Tandem` check at once (and never two per head, across a kill too), and who may command it.
 * Before the port these were tested only through HTTP (test/e2e/app-*.test.ts); here the service,
 * the check registry and the command handler run as the App composes them, on a real SQLite store.
 */
import { describe, expect, it } from 'vitest';
import type { Ask } from '../../src/app/delivered-requests.ts';
import { DeliveryClaims } from '../../src/app/delivery-claims.ts';
import { CheckRunRegistry } from '../../src/app/evaluations/check-run-registry.ts';
import { OrgConfigCache } from '../../src/app/evaluations/org-config-cache.ts';
import { TandemService } from '../../src/app/service.ts';
import type { Store } from '../../src/app/store/store.ts';
import { handleCommandComment } from '../../src/app/webhooks/comment-commands.ts';
import type { MatrixMode } from '../../src/core/matrix-mode.ts';
import { pullKey } from '../../src/core/pull-ref.ts';
import { useTempStore } from './app-fixtures.ts';
import { INSTALLATION, memoryWorld } from './memory-world.ts';

const temp = useTempStore('tandem-webhooks-');
const CONFIG = `evaluator: acme/suites
suites:
  - name: s
    repos: [acme/api]
    path: s/suite.yml
`;
const log = { info: () => {}, warn: () => {}, error: (o: object) => errors.push(o) };
const errors: object[] = [];

async function service() {
  const w = await memoryWorld(temp);
  w.gh.setOrgConfig('acme', CONFIG);
  const tandem = new TandemService({
    store: w.store,
    executor: { run: () => Promise.reject(new Error('no evaluation runs in these tests')) },
    github: async () => w.gh,
    configs: new OrgConfigCache({ ttlMs: 60_000 }),
    log,
    // Evaluations wait for the debounce: what is decided at once is what these tests look at.
    debounceMs: 3_600_000,
    concurrency: 1,
  });
  return { ...w, tandem };
}

describe('a PR webhook on the in-memory GitHub', () => {
  it('marks a covered PR queued once, however many webhooks arrive at once; an uncovered one gets no check', async () => {
    const w = await service();
    const api = w.gh.addPull({ repo: 'acme/api', number: 1 });
    const web = w.gh.addPull({ repo: 'acme/web', number: 2 });
    await Promise.all([w.tandem.onPull(api, INSTALLATION), w.tandem.onPull(api, INSTALLATION)]);
    await w.tandem.onPull(web, INSTALLATION);
    // Closing waits for the background work the webhooks began (the checks being created).
    await w.tandem.close();
    expect(w.gh.checks.map((c) => [c.repo, c.headSha, c.externalId, c.status])).toEqual([
      ['acme/api', api.headSha, 'acme/api#1', 'queued'],
    ]);
    expect(w.gh.calls.filter((c) => c.startsWith('orgConfig'))).toEqual(['orgConfig acme']);
    expect(errors).toEqual([]);
  });
});

describe('the check registry on the in-memory GitHub', () => {
  it('evaluating a head again moves its completed check back to queued instead of adding one', async () => {
    const w = await memoryWorld(temp);
    const checks = new CheckRunRegistry(w.store);
    const pr = w.gh.addPull({ repo: 'acme/api', number: 1 });
    const key = pullKey(pr.ref);
    const id = await checks.ensure(w.gh, key, pr.headSha, null);
    await w.gh.completeCheck('acme/api', id, 'success', { title: 'done', summary: '' });
    await w.store.checkRuns.complete(key, pr.headSha);
    expect(await checks.ensure(w.gh, key, pr.headSha, null)).toBe(id);
    expect(w.gh.checks.map((c) => [c.id, c.status])).toEqual([[id, 'queued']]);
  });

  it('adopts the check a killed process created but never stored, and closes its older duplicate', async () => {
    const w = await memoryWorld(temp);
    const pr = await w.opened({ repo: 'acme/api', number: 1 });
    const key = pullKey(pr.ref);
    // The killed process: its intent stored, two creates reached GitHub, no id stored.
    await w.store.checkRuns.intend(key, pr.headSha);
    const older = await w.gh.createQueuedCheck('acme/api', pr.headSha, key, '');
    const newer = await w.gh.createQueuedCheck('acme/api', pr.headSha, key, '');
    const checks = new CheckRunRegistry(w.store);
    expect(await checks.reconcile(async () => w.gh)).toBe(1);
    expect((await w.store.checkRuns.get(key, pr.headSha))?.checkRunId).toBe(newer);
    expect(w.gh.checks.map((c) => [c.id, c.status, c.conclusion])).toEqual([
      [older, 'completed', 'cancelled'],
      [newer, 'queued', undefined],
    ]);
    expect(await checks.ensure(w.gh, key, pr.headSha, null)).toBe(newer);
  });
});

describe('/tandem commands on the in-memory GitHub', () => {
  async function commands() {
    const w = await memoryWorld(temp);
    w.gh.grantWrite('acme/api', 'alice');
    await w.opened({ repo: 'acme/api', number: 1 });
    const requests: Array<{ seed: string; matrix: MatrixMode | undefined }> = [];
    const tandem = {
      store: w.store,
      deliveries: new DeliveryClaims(w.store),
      requestDelivered: async (
        _delivery: unknown,
        _installationId: number,
        asks: readonly Ask[],
        record?: (tx: Store) => Promise<void>,
      ) => {
        await w.store.transaction(async (tx) => record?.(tx));
        for (const a of asks) requests.push({ seed: a.seed, matrix: a.matrix });
        return true;
      },
      whileMerging: <T>(_members: readonly string[], merge: () => Promise<T>) => merge(),
      linkedSet: async (seed: string) => [seed],
      log,
      // No merge command is said here: the queue and the org's executor are never asked.
      queue: undefined as never,
      configFor: async () => undefined,
    };
    const say = (id: number, author: string, body: string) =>
      handleCommandComment(tandem, w.gh, INSTALLATION, { owner: 'acme', repo: 'api' }, 1, {
        id,
        body,
        author,
      });
    return { ...w, requests, say };
  }

  it("a reader's command is refused with 😕 and changes nothing", async () => {
    const w = await commands();
    await w.say(11, 'mallory', '/tandem link acme/web#5\n/tandem run');
    expect(w.gh.reactions).toEqual([{ repo: 'acme/api', commentId: 11, content: 'confused' }]);
    expect(await w.store.links.from('acme/api#1')).toEqual([]);
    expect(w.requests).toEqual([]);
  });

  it("a writer's /tandem link is recorded as their consent, acknowledged with 👍, and the set evaluated", async () => {
    const w = await commands();
    await w.say(12, 'Alice', '/tandem link acme/web#5\n/tandem matrix full');
    expect(w.gh.reactions).toEqual([{ repo: 'acme/api', commentId: 12, content: '+1' }]);
    expect((await w.store.links.from('acme/api#1')).map(pullKey)).toEqual(['acme/web#5']);
    expect(await w.store.links.writersOf('acme/api#1', 'acme/web#5', undefined)).toEqual(['Alice']);
    expect(await w.store.links.isWriter('ACME/API', 'alice')).toBe(true);
    expect(w.requests).toEqual([{ seed: 'acme/api#1', matrix: 'full' }]);
  });
});
