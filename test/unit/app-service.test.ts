/**
 * The App's service without Probot or an engine: webhook facts in, evaluations through the
 * state machine, GitHub over real HTTP (the stand-in), a real SQLite file, and an executor the
 * test holds and releases. Covers what only the service decides: a newer push supersedes the
 * running evaluation, shutdown leaves it `running` and a new process resumes it, a crash before
 * any verdict ends `failed` instead of staying `running`. Every wait is on an event.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OrgConfigCache } from '../../src/app/evaluations/org-config-cache.ts';
import type { Executor, LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import { InstallationClients } from '../../src/app/installation-clients.ts';
import { octokitPort } from '../../src/app/port/octokit-port.ts';
import { TandemService } from '../../src/app/service.ts';
import type { Transition } from '../../src/app/store/evaluation-states.ts';
import { Store } from '../../src/app/store/store.ts';
import { pullInfoOf } from '../../src/core/pull-request.schema.ts';
import type { Report } from '../../src/core/report.schema.ts';
import type { GitHub } from '../../src/github/octokit.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';
import { type StandIn, startGitHubStandIn } from '../support/github-standin/index.ts';
import { addApiPull, standInClient, UNIT_SUITE } from './app-fixtures.ts';
import { resolvedReport } from './report-fixtures.ts';

const SUITE = UNIT_SUITE();
const CONFIG = `evaluator: acme/suites
suites:
  - name: s
    repos: [acme/api]
    path: s/suite.yml
matrix: full
`;

/** Holds every run until the test releases it (or it is aborted). */
class HeldExecutor implements Executor {
  readonly runs: Array<{ spec: LinkedChangeSpec; release: (r: Report) => void; fail: (e: Error) => void }> =
    [];
  private readonly waiters: Array<{ n: number; resolve: () => void }> = [];

  started(n: number): Promise<void> {
    if (this.runs.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }

  run(spec: LinkedChangeSpec, signal: AbortSignal): Promise<Report> {
    return new Promise((release, fail) => {
      signal.addEventListener('abort', () => fail(signal.reason as Error), { once: true });
      this.runs.push({ spec, release, fail });
      for (const w of this.waiters.filter((x) => this.runs.length >= x.n)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve();
      }
    });
  }
}

let dir: string | undefined;
let standIn: StandIn | undefined;
const toClose: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of toClose.splice(0).reverse()) await c();
  await standIn?.close();
  if (dir) await removeTempDir(dir);
  standIn = undefined;
  dir = undefined;
});

const errors: unknown[] = [];
const log = { info: () => {}, warn: () => {}, error: (o: object) => errors.push(o) };

async function world() {
  standIn = await startGitHubStandIn();
  standIn.addRepo({ owner: 'acme', name: 'api' });
  standIn.addRepo({ owner: 'acme', name: 'suites', private: true });
  standIn.addRepo({ owner: 'acme', name: '.github' });
  standIn.setFile('acme', '.github', '.github/tandem.yml', CONFIG);
  standIn.setFile('acme', 'suites', 's/suite.yml', SUITE);
  standIn.setFile('acme', 'suites', 's/hidden/t.test.js', 'test\n');
  addApiPull(standIn, '1'.repeat(40), '0'.repeat(40));
  dir = await makeTempDir('tandem-service-');
  const file = join(dir, 'tandem.db');
  const installationId = standIn.installationId('acme');
  const gh = standInClient(standIn);
  const si = standIn;
  const start = async (opts: { auth?: () => Promise<GitHub> } = {}) => {
    const store = await Store.open(file);
    const executor = new HeldExecutor();
    const transitions: Transition[] = [];
    store.evaluations.on('transition', (t) => transitions.push(t));
    const service = new TandemService({
      store,
      executor,
      github: (() => {
        const auth = opts.auth ?? (async () => gh);
        const clients = new InstallationClients(async () => octokitPort(await auth()));
        return (id: number) => clients.get(id);
      })(),
      configs: new OrgConfigCache({ ttlMs: 60_000 }),
      log,
      debounceMs: 3_600_000,
      concurrency: 2,
    });
    let closed = false;
    const stop = async () => {
      if (closed) return;
      closed = true;
      await service.close();
      await store.close();
    };
    toClose.push(stop);
    return { store, executor, service, transitions, stop };
  };
  const pull = () => pullInfoOf(si.pullRequest('acme', 'api', 1));
  return { si, start, pull, installationId };
}

describe('TandemService', () => {
  it('holds evaluations of a set being merged and schedules them once the merge is over', async () => {
    const w = await world();
    const a = await w.start();
    const key = 'acme/api#1';
    await a.service.whileMerging([key], async () => {
      // A merged member's webhook asks to re-evaluate the rest: not halfway through the merge.
      await a.service.request(key, w.installationId, 'full');
      await a.service.request(key, w.installationId);
      expect(await a.store.evaluations.latestCovering([key])).toBeUndefined();
    });
    const held = await a.store.evaluations.latestCovering([key]);
    expect(held).toMatchObject({ seed: key, state: 'queued', matrix: 'full' });
    await a.service.request(key, w.installationId);
    expect((await a.store.evaluations.latestCovering([key]))?.id).toBe(held?.id);
  });

  it('a newer push supersedes the running evaluation; the newer one is published', async () => {
    const w = await world();
    const a = await w.start();
    await a.service.onPull(w.pull(), w.installationId);
    // The queued check is created in the background, after the webhook's answer.
    await w.si.state.when(() => w.si.checkRuns('acme', 'api').length > 0);
    expect(w.si.checkRuns('acme', 'api').map((c) => c.status)).toEqual(['queued']);
    a.service.flush();
    await a.executor.started(1);
    const first = a.transitions.find((t) => t.to === 'running')!.id;

    w.si.updatePullRequest('acme', 'api', 1, { headSha: '2'.repeat(40) });
    await a.service.onPull(w.pull(), w.installationId);
    expect(await a.store.evaluations.reached(first)).toBe('superseded');
    a.service.flush();
    await a.executor.started(2);
    a.executor.runs[1]!.release(resolvedReport());
    await a.service.idle();

    const second = a.transitions.filter((t) => t.to === 'running').at(-1)!.id;
    expect(await a.store.evaluations.stateOf(second)).toBe('published');
    expect(a.transitions.filter((t) => t.id === first).map((t) => t.to)).toEqual([
      'queued',
      'running',
      'superseded',
    ]);
    const checks = w.si.checkRuns('acme', 'api');
    expect(checks.map((c) => [c.head_sha[0], c.status, c.conclusion])).toEqual([
      ['1', 'completed', 'cancelled'],
      ['2', 'completed', 'success'],
    ]);
    expect(errors).toEqual([]);
  });

  it('shutdown leaves a running evaluation running; the next process resumes and publishes it', async () => {
    const w = await world();
    const a = await w.start();
    await a.service.onPull(w.pull(), w.installationId);
    a.service.flush();
    await a.executor.started(1);
    const id = a.transitions.find((t) => t.to === 'running')!.id;
    await a.stop();

    const b = await w.start();
    expect(await b.store.evaluations.stateOf(id)).toBe('running');
    expect(await b.service.resume()).toBe(1);
    expect(await b.store.evaluations.stateOf(id)).toBe('queued');
    await b.executor.started(1); // resumed evaluations start without a debounce
    b.executor.runs[0]!.release(resolvedReport());
    expect(await b.store.evaluations.reached(id)).toBe('published');
    await b.service.idle();
    // The resumed evaluation completed the check run the first process created.
    expect(w.si.checkRuns('acme', 'api').map((c) => [c.status, c.conclusion])).toEqual([
      ['completed', 'success'],
    ]);
  });

  it('a kill that leaves two evaluations of one set: the restart supersedes the older, runs the newer', async () => {
    const w = await world();
    const a = await w.start();
    const states = a.store.evaluations;
    const row = { setKey: 'acme/api#1', seed: 'acme/api#1', installationId: w.installationId, matrix: null };
    const older = await states.create(row);
    await states.start(older);
    const newer = await states.create(row);
    await a.stop();

    const b = await w.start();
    expect(await b.service.resume()).toBe(2);
    await b.executor.started(1);
    b.executor.runs[0]!.release(resolvedReport());
    expect(await b.store.evaluations.reached(newer)).toBe('published');
    expect(await b.store.evaluations.stateOf(older)).toBe('superseded');
    await b.service.idle();
    expect(b.executor.runs).toHaveLength(1);
  });

  it('an evaluation that crashes before any verdict ends failed, not running', async () => {
    const w = await world();
    const a = await w.start({ auth: () => Promise.reject(new Error('installation token refused')) });
    errors.length = 0;
    await a.service.request('acme/api#1', w.installationId);
    const id = a.transitions[0]!.id;
    a.service.flush();
    expect(await a.store.evaluations.reached(id)).toBe('failed');
    await a.service.idle();
    expect(errors).toHaveLength(1);
    expect(a.executor.runs).toHaveLength(0);
  });
});
