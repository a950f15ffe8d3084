/**
 * The world the App's end-to-end tests run in: a GitHub stand-in on loopback, real bare git
 * repositories served over HTTP, the App's real server pointed at the stand-in via GHE_HOST, and
 * signed webhook deliveries. Scenario: `acme/schema` adds a `total` field, `acme/api` uses it;
 * the hidden test needs both (a jointly necessary change).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'probot';
import { afterEach, it } from 'vitest';
import { type Executor, type LinkedChangeSpec, LocalExecutor } from '../../src/app/executors/executor.ts';
import { type AppServer, startAppServer } from '../../src/app/server.ts';
import type { Report } from '../../src/core/report.schema.ts';
import type { EvaluationEvent } from '../../src/engine/evaluate-api.ts';
import { hostDefaults } from '../../src/engine/evaluation-request.ts';
import { git, gitOut } from '../../src/engine/git/git.ts';
import {
  commitOn,
  createRepo,
  type FixtureRepo,
  makeTempDir,
  removeTempDir,
} from '../helpers/git-fixtures.ts';
import { appKeys } from '../support/app-keys.ts';
import { type GitHttpServer, startGitHttpServer } from '../support/git-http-server.ts';
import { type StandIn, startGitHubStandIn } from '../support/github-standin/index.ts';
import { setGitDir } from '../support/github-standin/routes/merges.ts';
import { setBranch } from '../support/github-standin/routes/repos.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.ts';
import { createWebhookSender, type WebhookSender } from '../support/webhook-sender.ts';

/** examples/workflows/tandem.yml, the workflow docs/app.md tells evaluators to copy. */
const EVALUATOR_WORKFLOW = readFileSync(
  new URL('../../examples/workflows/tandem.yml', import.meta.url),
  'utf8',
);

export const SECRET = 'e2e-secret';

export const HIDDEN_TEST = `
const test = require('node:test');
const assert = require('node:assert');
const path = require('node:path');
const ws = process.env.TANDEM_WORKSPACE;
test('schema declares total', () => {
  assert.ok(require(path.join(ws, 'schema')).fields.includes('total'));
});
test('api computes total', () => {
  assert.strictEqual(require(path.join(ws, 'api')).total([1, 2, 3]), 6);
});
test('web keeps its first page', () => {
  assert.strictEqual(require(path.join(ws, 'web')).page, 1);
});
`;

export const SUITE = `
name: checkout
image: tandem/sandbox:node20
tests:
  - name: checkout
    files: [hidden/checkout.test.js]
    run: node --test --test-reporter=junit --test-reporter-destination=$TANDEM_RESULTS/checkout.xml $TANDEM_HIDDEN/checkout.test.js
    results: { format: junit, path: checkout.xml }
    timeout: 60
merge_order: [acme/schema, acme/api, acme/web]
`;

export function orgConfig(extra = ''): string {
  return `evaluator: acme/tandem-suites
suites:
  - name: checkout
    repos: [acme/schema, acme/api, acme/web]
    path: suites/checkout/suite.yml
matrix: full
reveal: names
${extra}`;
}

export const API_OK = `const s = require('../schema');
module.exports = { total(xs) { if (!s.fields.includes('total')) throw new Error('schema lacks total'); return xs.reduce((a, b) => a + b, 0); } };
`;
export const API_BUG = API_OK.replace('a + b', 'a - b');
/** `acme/schema` with the `total` field `API_OK` needs. */
export const SCHEMA_OK = { 'index.js': "module.exports = { fields: ['id', 'total'] };\n" };

export interface World {
  root: string;
  standIn: StandIn;
  gitServer: GitHttpServer;
  app: AppServer;
  sender: WebhookSender;
  repos: Record<string, FixtureRepo & { sha: string }>;
  installationId: number;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  backend: AppBackend;
  /** The world's own PostgreSQL database (backend `postgres`), dropped with the world. */
  database?: TestDatabase;
}

/**
 * Where the App keeps its state: the embedded SQLite file in the data folder (the default), or a
 * PostgreSQL database of the world's own, given to the App as `DATABASE_URL` as an operator would.
 */
export type AppBackend = 'sqlite' | 'postgres';
/** Both stores, for `describe.each(APP_BACKENDS)` over the suites that exercise the App's state. */
export const APP_BACKENDS: readonly AppBackend[] = ['sqlite', 'postgres'];
/**
 * `it` for a test of a `describe.each(APP_BACKENDS)` block that runs on the embedded store only:
 * its store paths are those another test of the block already runs on PostgreSQL, and CI time is
 * spent once (each file's header says which tests run on both, and why).
 */
export function sqliteOnly(
  backend: AppBackend,
): (name: string, fn: () => Promise<void>, timeout?: number) => void {
  // Not registered at all on PostgreSQL (rather than reported skipped): these tests exist for one store.
  return backend === 'sqlite' ? (name, fn, timeout) => it(name, fn, timeout) : () => {};
}

/**
 * `TANDEM_E2E_BACKEND=postgres` runs every App e2e test that does not name its backend on
 * PostgreSQL (a sweep by hand; CI runs the `describe.each(APP_BACKENDS)` suites on both).
 */
function defaultBackend(): AppBackend {
  const named = process.env.TANDEM_E2E_BACKEND;
  if (named === undefined || named === '') return 'sqlite';
  if (named === 'sqlite' || named === 'postgres') return named;
  throw new Error(`TANDEM_E2E_BACKEND: expected sqlite or postgres, got ${JSON.stringify(named)}`);
}

export interface WorldOptions {
  /** Default `sqlite`; `postgres` creates a database of the world's own (`createTestDatabase`). */
  backend?: AppBackend;
  executor?: Executor;
  /**
   * Default: ten minutes, so nothing starts by the clock: a test sends its webhooks, then ends
   * the debounce window itself (`settle`, `service.flush()`), however slowly they arrived.
   */
  debounceMs?: number;
  /** `.github/tandem.yml` of the organization (default `orgConfig()`). */
  config?: string;
  /** `TANDEM_PUBLIC_URL`: the App then links each published JSON report. */
  publicUrl?: string;
  /** Fixture repositories (`schema`, `api`, `web`) the stand-in marks private. */
  privateRepos?: string[];
  /** More of the App's environment (`TANDEM_SANDBOX`, …). */
  env?: Record<string, string>;
  /** The App's logger (a test reads its lines); default Probot's at LOG_LEVEL `fatal`. */
  log?: Logger;
}

export async function createWorld(opts: WorldOptions = {}): Promise<World> {
  const root = await makeTempDir('tandem-app-e2e-');
  const gitRoot = join(root, 'git');
  const repos = {
    schema: await createRepo(join(gitRoot, 'acme'), 'schema', {
      'index.js': "module.exports = { fields: ['id'] };\n",
    }),
    api: await createRepo(join(gitRoot, 'acme'), 'api', { 'index.js': 'module.exports = {};\n' }),
    web: await createRepo(join(gitRoot, 'acme'), 'web', { 'index.js': 'module.exports = { page: 1 };\n' }),
  };
  const gitServer = await startGitHttpServer(gitRoot);
  const standIn = await startGitHubStandIn();
  for (const name of ['schema', 'api', 'web']) {
    standIn.addRepo({
      owner: 'acme',
      name,
      cloneUrl: `${gitServer.url}/acme/${name}.git`,
      ...(opts.privateRepos?.includes(name) ? { private: true } : {}),
    });
    // The org's developers (the stand-in's default PR author) write to its repositories: their
    // links count both ways. Attack tests open PRs as someone else.
    standIn.setPermission('acme', name, 'octocat', 'write');
  }
  standIn.addRepo({ owner: 'acme', name: 'tandem-suites', private: true });
  standIn.addRepo({ owner: 'acme', name: '.github' });
  standIn.setFile('acme', '.github', '.github/tandem.yml', opts.config ?? orgConfig());
  standIn.setFile('acme', 'tandem-suites', 'suites/checkout/suite.yml', SUITE);
  standIn.setFile('acme', 'tandem-suites', 'suites/checkout/hidden/checkout.test.js', HIDDEN_TEST);
  // The shipped evaluator workflow: the stand-in refuses dispatches it does not declare, as GitHub does.
  standIn.setFile('acme', 'tandem-suites', '.github/workflows/tandem.yml', EVALUATOR_WORKFLOW);
  const dataDir = join(root, 'data');
  const backend = opts.backend ?? defaultBackend();
  const database = backend === 'postgres' ? await createTestDatabase() : undefined;
  const env: NodeJS.ProcessEnv = {
    APP_ID: String(standIn.appId),
    PRIVATE_KEY: appKeys().privateKeyPem,
    WEBHOOK_SECRET: SECRET,
    GHE_HOST: standIn.host,
    GHE_PROTOCOL: 'http',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'fatal',
    TANDEM_DATA_DIR: dataDir,
    TANDEM_DEBOUNCE_MS: String(opts.debounceMs ?? 600_000),
    TANDEM_CONCURRENCY: '2',
    ...(opts.publicUrl ? { TANDEM_PUBLIC_URL: opts.publicUrl } : {}),
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...opts.env,
  };
  let app: AppServer;
  try {
    app = await startAppServer({
      env,
      ...(opts.executor ? { executor: opts.executor } : {}),
      ...(opts.log ? { log: opts.log } : {}),
    });
  } catch (e) {
    await database?.drop();
    await standIn.close();
    await gitServer.close();
    await removeTempDir(root);
    throw e;
  }
  const sender = createWebhookSender({ url: `${app.url}/api/github/webhooks`, secret: SECRET });
  return {
    root,
    standIn,
    gitServer,
    app,
    sender,
    repos,
    installationId: standIn.installationId('acme'),
    dataDir,
    env,
    backend,
    ...(database ? { database } : {}),
  };
}

export async function destroyWorld(w: World | undefined): Promise<void> {
  if (!w) return;
  await w.app.close().catch(() => {});
  await w.standIn.close();
  await w.gitServer.close();
  // After the App closed: dropping ends any connection still open (a killed process's).
  await w.database?.drop();
  await removeTempDir(w.root);
}

/**
 * Registers an `afterEach` that tears down the world the test started (passed or not) and
 * returns the starter: `const startWorld = useWorld();` at the top of a file, then
 * `const w = await startWorld();` in each test. `defaults` apply to every world it starts (a
 * `describe.each(APP_BACKENDS)` block passes `{ backend }`).
 */
export function useWorld(defaults: WorldOptions = {}): (opts?: WorldOptions) => Promise<World> {
  let current: World | undefined;
  afterEach(async () => {
    await destroyWorld(current);
    current = undefined;
  });
  return async (opts = {}) => {
    current = await createWorld({ ...defaults, ...opts });
    return current;
  };
}

/** Restarts the App on the same data directory (a crash and restart, as far as state goes). */
export async function restartApp(w: World, executor?: Executor): Promise<void> {
  await w.app.close();
  w.app = await startAppServer({ env: w.env, ...(executor ? { executor } : {}) });
  w.sender = createWebhookSender({ url: `${w.app.url}/api/github/webhooks`, secret: SECRET });
}

/** Pushes a branch with `files` to a fixture repo, publishes refs/pull/N/head, opens the PR in the stand-in. */
export async function openPull(
  w: World,
  repo: 'schema' | 'api' | 'web',
  files: Record<string, string>,
  body: string,
  branch = 'feature',
  base = 'main',
  user?: string,
) {
  const fixture = w.repos[repo]!;
  const baseSha = await gitOut(['rev-parse', `refs/heads/${base}`], { cwd: fixture.bare });
  const head = await commitOn(fixture, branch, files, `change ${repo}`, { from: baseSha.trim() });
  const pr = w.standIn.addPullRequest({
    owner: 'acme',
    repo,
    title: `Checkout total (${repo})`,
    body,
    headRef: branch,
    headSha: head,
    baseRef: base,
    baseSha: baseSha.trim(),
    ...(user ? { user } : {}),
  });
  await git(['update-ref', `refs/pull/${pr.number}/head`, head], { cwd: fixture.bare });
  return pr;
}

/** Sends a pull_request webhook for the stand-in's current view of the PR. */
export function sendPull(
  w: World,
  action: string,
  repo: string,
  number: number,
  extra: { changes?: object } = {},
) {
  return w.sender.pullRequest(action, {
    pullRequest: w.standIn.pullRequest('acme', repo, number) as unknown as Record<string, unknown>,
    repository: w.standIn.repository('acme', repo) as unknown as Record<string, unknown>,
    installationId: w.installationId,
    ...(extra.changes ? { changes: extra.changes as Record<string, unknown> } : {}),
  });
}

/** The comment webhook for `comment`, already on acme/`repo`#`number` in the stand-in. */
export function sendComment(w: World, repo: string, number: number, comment: object) {
  return w.sender.issueCommentCreated({
    pullRequest: w.standIn.pullRequest('acme', repo, number) as unknown as Record<string, unknown>,
    repository: w.standIn.repository('acme', repo) as unknown as Record<string, unknown>,
    comment: comment as unknown as Record<string, unknown>,
    installationId: w.installationId,
  });
}

/** `user` comments `body` on acme/`repo`#`number`, as a comment webhook; resolves with the comment once the App is idle. */
export async function postComment(w: World, repo: string, body: string, user: string, number = 1) {
  const comment = w.standIn.addComment('acme', repo, number, { body, user });
  await sendComment(w, repo, number, comment);
  await settle(w);
  return comment;
}

export function tandemChecks(w: World, repo: string, sha?: string) {
  return w.standIn.checkRuns('acme', repo, sha).filter((c) => c.name === 'Tandem');
}

export function stickyComments(w: World, repo: string, number: number) {
  return w.standIn
    .comments('acme', repo, number)
    .filter((c) => c.body?.includes('<!-- tandem:linked-change -->'));
}

/** Publishes a branch tip in the stand-in (`GET /repos/acme/{repo}/branches/{branch}`). */
export function publishBranch(w: World, repo: string, branch: string, sha: string): void {
  setBranch(w.standIn.state, 'acme', repo, branch, sha);
}

/**
 * Lets `/tandem merge` work on the fixture repositories: the stand-in merges into their bare
 * repositories, and each one's `main` tip is published (the App reads required checks from it).
 */
export function mergeable(
  w: World,
  repos: ReadonlyArray<'schema' | 'api' | 'web'> = ['schema', 'api', 'web'],
): void {
  for (const name of repos) {
    setGitDir(w.standIn.state, 'acme', name, w.repos[name]!.bare);
    publishBranch(w, name, 'main', w.repos[name]!.sha);
  }
}

/** Ends the debounce windows and waits until every evaluation and webhook task has finished. */
export function settle(w: World): Promise<void> {
  return w.app.service.idle({ flush: true });
}

/**
 * Waits for a condition the stand-in shows (a dispatch, a check's status) where the App has no
 * event for it: checked after every request the stand-in answers, with no clock. `what` names
 * the wait in the test's own words (a hang ends at the test's timeout).
 */
export function until(w: World, pred: () => boolean, _what: string): Promise<void> {
  return w.standIn.state.when(pred);
}

export interface ObservedRun {
  spec: LinkedChangeSpec;
  /** Whether the run's signal was aborted (a newer change made it stale). */
  aborted: boolean;
  report?: Report;
}

/**
 * The real engine (Docker), with a record of every evaluation the App dispatched to it. With
 * `holdFirst`, the first run waits until it is aborted or `release()` is called, so a test can
 * change the set while an evaluation is in flight.
 */
export class ObservedExecutor implements Executor {
  readonly runs: ObservedRun[] = [];
  private readonly inner: LocalExecutor;
  private hold: { promise: Promise<void>; release: () => void } | undefined;
  private readonly startWaiters: Array<{ n: number; resolve: () => void }> = [];
  private restGate: { promise: Promise<void>; release: () => void } | undefined;
  private releaseGate = () => {};

  constructor(cacheDir: string, opts: { holdFirst?: boolean } = {}) {
    this.inner = new LocalExecutor({ cacheDir, host: hostDefaults(process.env), sandbox: 'docker', jobs: 2 });
    if (opts.holdFirst) {
      let release = () => {};
      const promise = new Promise<void>((r) => {
        release = r;
      });
      this.hold = { promise, release };
    }
  }

  release(): void {
    this.hold?.release();
  }

  /**
   * Arms a gate for the next run: the ends of its configurations other than the full one (and the
   * run's answer) are reported only after `releaseRest()`, so a test sees the verdict while the rest
   * of the matrix is still to go, whatever order the engine finishes them in.
   */
  holdRestAfterFull(): void {
    let release = () => {};
    const promise = new Promise<void>((r) => {
      release = r;
    });
    this.restGate = { promise, release };
    this.releaseGate = release;
  }

  releaseRest(): void {
    this.releaseGate();
  }

  /** Resolves once `n` evaluations have reached the executor. */
  started(n: number): Promise<void> {
    if (this.runs.length >= n) return Promise.resolve();
    return new Promise((resolve) => this.startWaiters.push({ n, resolve }));
  }

  async run(
    spec: LinkedChangeSpec,
    signal: AbortSignal,
    onEvent?: (event: EvaluationEvent) => void,
  ): Promise<Report> {
    const run: ObservedRun = { spec, aborted: false };
    this.runs.push(run);
    for (const w of this.startWaiters.filter((x) => this.runs.length >= x.n)) {
      this.startWaiters.splice(this.startWaiters.indexOf(w), 1);
      w.resolve();
    }
    signal.addEventListener('abort', () => {
      run.aborted = true;
    });
    if (this.hold && this.runs.length === 1) {
      const hold = this.hold.promise;
      await new Promise<void>((ok) => {
        signal.addEventListener('abort', () => ok());
        void hold.then(ok);
      });
      if (signal.aborted) throw new Error('aborted while held');
    }
    const gate = this.restGate;
    this.restGate = undefined;
    if (!gate || !onEvent) {
      run.report = await this.inner.run(spec, signal, onEvent);
      return run.report;
    }
    signal.addEventListener('abort', () => gate.release());
    // Every other configuration's end waits for the release, whichever order the engine finishes them in.
    let held: EvaluationEvent[] | undefined = [];
    void gate.promise.then(() => {
      for (const e of held ?? []) onEvent(e);
      held = undefined;
    });
    const report = await this.inner.run(spec, signal, (e) => {
      if (held && e.type === 'configuration-done' && e.id !== 'full') held.push(e);
      else onEvent(e);
    });
    await gate.promise;
    run.report = report;
    return report;
  }
}
