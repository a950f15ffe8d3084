/**
 * One builder for the App's end-to-end tests, over the world of `test/e2e/app-harness.ts` (the
 * GitHub stand-in, real git repositories, the App's real server): what each test file used to set
 * up by hand (an observed engine, the org config, who may write where, mergeable repositories,
 * the PRs to open) is said in one chain, and the world's actions are methods of the scenario.
 *
 *   const scenario = useScenario();
 *   const s = await scenario().observe().mergeable().writer('alice', ['schema', 'api'])
 *     .pull('schema', SCHEMA_OK, 'Adds total.').pull('api', { 'index.js': API_OK }, USES_SCHEMA)
 *     .start();          // the PRs are opened, announced by webhook and evaluated
 *   await s.postComment('api', '/tandem merge', 'alice');
 */
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { Executor } from '../../src/app/executors/executor.ts';
import {
  createWorld,
  destroyWorld,
  mergeable,
  ObservedExecutor,
  openPull,
  orgConfig,
  postComment,
  publishBranch,
  restartApp,
  sendComment,
  sendPull,
  settle,
  stickyComments,
  tandemChecks,
  until,
  type World,
  type WorldOptions,
} from '../e2e/app-harness.ts';
import type { Permission } from '../support/github-standin/index.ts';
import { requireChecks } from '../support/github-standin/routes/merges.ts';
import { makeTempDir, removeTempDir } from './git-fixtures.ts';

export type FixtureName = 'schema' | 'api' | 'web';

/** The body of a consumer PR that needs acme/schema#1. */
export const USES_SCHEMA = 'Uses total.\n\nDepends-On: acme/schema#1';
export const MERGE_MARKER = '<!-- tandem:merge -->';
/** The merge calls of a set acme/schema#1 ← acme/api#1 merged producer first. */
export const BOTH_MERGED = ['/repos/acme/schema/pulls/1/merge', '/repos/acme/api/pulls/1/merge'];
/** An org config whose one suite covers acme/schema only: PRs elsewhere are never evaluated. */
export const SCHEMA_ONLY_CONFIG = `evaluator: acme/tandem-suites
suites:
  - name: checkout
    repos: [acme/schema]
    path: suites/checkout/suite.yml
`;

type Rest<F> = F extends (w: World, ...rest: infer R) => infer T ? (...rest: R) => T : never;

/** The world's actions, bound to it (`s.openPull(...)` for `openPull(w, ...)`). */
export interface Scenario extends World {
  openPull: Rest<typeof openPull>;
  sendPull: Rest<typeof sendPull>;
  sendComment: Rest<typeof sendComment>;
  postComment: Rest<typeof postComment>;
  tandemChecks: Rest<typeof tandemChecks>;
  stickyComments: Rest<typeof stickyComments>;
  publishBranch: Rest<typeof publishBranch>;
  mergeable: Rest<typeof mergeable>;
  settle: Rest<typeof settle>;
  until: Rest<typeof until>;
  restartApp: Rest<typeof restartApp>;
  /** Conclusions of the `Tandem` checks on acme/`repo` (at `sha`). */
  conclusions(repo: string, sha?: string): Array<string | null | undefined>;
  /** The body of acme/`repo`#`number`'s sticky comment ('' when there is none). */
  sticky(repo: string, number?: number): string;
  /** The sticky comment's "Linked" line on acme/`repo`#1: the members the comment speaks for. */
  linkedLine(repo: string): string;
  /** The body of the `/tandem merge` comment on acme/`repo`#`number` ('' when there is none). */
  mergeComment(repo: string, number?: number): string;
  /** The merge calls the App made, as request paths, in order. */
  mergeCalls(): string[];
  /** The engine `observe()` put in (an error when the scenario has none). */
  readonly observed: ObservedExecutor;
}

function bind(w: World, observed: ObservedExecutor | undefined): Scenario {
  const actions: Omit<Scenario, keyof World | 'observed'> = {
    openPull: (...a) => openPull(w, ...a),
    sendPull: (...a) => sendPull(w, ...a),
    sendComment: (...a) => sendComment(w, ...a),
    postComment: (...a) => postComment(w, ...a),
    tandemChecks: (...a) => tandemChecks(w, ...a),
    stickyComments: (...a) => stickyComments(w, ...a),
    publishBranch: (...a) => publishBranch(w, ...a),
    mergeable: (...a) => mergeable(w, ...a),
    settle: () => settle(w),
    until: (...a) => until(w, ...a),
    restartApp: (...a) => restartApp(w, ...a),
    conclusions: (repo, sha) => tandemChecks(w, repo, sha).map((c) => c.conclusion),
    sticky: (repo, number = 1) => stickyComments(w, repo, number)[0]?.body ?? '',
    linkedLine: (repo) => /^\*\*Linked[^\n]*$/m.exec(stickyComments(w, repo, 1)[0]?.body ?? '')?.[0] ?? '',
    mergeComment: (repo, number = 1) =>
      w.standIn.comments('acme', repo, number).find((c) => c.body?.includes(MERGE_MARKER))?.body ?? '',
    mergeCalls: () =>
      w.standIn.requests.filter((r) => r.method === 'PUT' && r.path.endsWith('/merge')).map((r) => r.path),
  };
  const s = Object.assign(w, actions) as Scenario;
  Object.defineProperty(s, 'observed', {
    get: () => {
      if (!observed) throw new Error('this scenario has no observed engine: build it with .observe()');
      return observed;
    },
  });
  return s;
}

type Step = (s: Scenario) => unknown;

export class ScenarioBuilder {
  private opts: WorldOptions = {};
  private observeOpts: { holdFirst?: boolean } | undefined;
  private readonly steps: Step[] = [];
  private readonly pulls: Step[] = [];

  constructor(private readonly started: (s: Scenario, cacheDir?: string) => void) {}

  /** `.github/tandem.yml`: the text, or `orgConfig(extra)` when `extra` is given as `{ extra }`. */
  config(text: string | { extra: string }): this {
    this.opts.config = typeof text === 'string' ? text : orgConfig(text.extra);
    return this;
  }

  /** Any other `WorldOptions` (privateRepos, publicUrl, env, debounceMs). */
  with(opts: WorldOptions): this {
    this.opts = { ...this.opts, ...opts };
    return this;
  }

  executor(executor: Executor): this {
    this.opts.executor = executor;
    return this;
  }

  /** The real engine with a record of its runs (`s.observed`); `holdFirst` as ObservedExecutor's. */
  observe(opts: { holdFirst?: boolean } = {}): this {
    this.observeOpts = opts;
    return this;
  }

  /** `/tandem merge` works on these fixture repositories (default all three). */
  mergeable(repos?: ReadonlyArray<FixtureName>): this {
    this.steps.push((s) => s.mergeable(repos));
    return this;
  }

  /** `user` has `permission` (default write) on each of acme/`repos`. */
  writer(user: string, repos: readonly string[], permission: Permission = 'write'): this {
    this.steps.push((s) => {
      for (const r of repos) s.standIn.setPermission('acme', r, user, permission);
    });
    return this;
  }

  /** `checks` are required on `main` of each of acme/`repos` (as docs/app.md recommends for `Tandem`). */
  requireChecks(repos: readonly string[], checks: string[] = ['Tandem']): this {
    this.steps.push((s) => {
      for (const r of repos) requireChecks(s.standIn.state, 'acme', r, 'main', checks);
    });
    return this;
  }

  /** A file of acme/`repo` as the stand-in serves it (the suite, the hidden test, the org config). */
  file(repo: string, path: string, text: string): this {
    this.steps.push((s) => s.standIn.setFile('acme', repo, path, text));
    return this;
  }

  /** The evaluator's `suites/checkout/suite.yml`. */
  suite(text: string): this {
    return this.file('tandem-suites', 'suites/checkout/suite.yml', text);
  }

  /** Anything else to do on the started world before the PRs are opened. */
  setup(step: Step): this {
    this.steps.push(step);
    return this;
  }

  /**
   * A PR on branch `feature` of acme/`repo` with `files`, opened and announced by an `opened`
   * webhook at `start()`, in the order given; `start()` then lets the App evaluate them.
   */
  pull(repo: FixtureName, files: Record<string, string>, body: string): this {
    this.pulls.push(async (s) => {
      const pr = await s.openPull(repo, files, body);
      await s.sendPull('opened', repo, pr.number);
    });
    return this;
  }

  async start(): Promise<Scenario> {
    let cacheDir: string | undefined;
    if (this.observeOpts) cacheDir = await makeTempDir('tandem-scenario-');
    const observed = cacheDir ? new ObservedExecutor(join(cacheDir, 'cache'), this.observeOpts) : undefined;
    const world = await createWorld({ ...this.opts, ...(observed ? { executor: observed } : {}) });
    const s = bind(world, observed);
    this.started(s, cacheDir);
    for (const step of this.steps) await step(s);
    for (const step of this.pulls) await step(s);
    if (this.pulls.length > 0) await s.settle();
    return s;
  }
}

/**
 * Registers an `afterEach` that tears down the scenario a test started (passed or not) and
 * returns the builder's start: `const scenario = useScenario();` at the top of a file, then
 * `const s = await scenario()....start();` in each test. `defaults` start every builder (a
 * `describe.each(APP_BACKENDS)` block passes `{ backend }`).
 */
export function useScenario(defaults: WorldOptions = {}): () => ScenarioBuilder {
  let current: { s: Scenario; cacheDir?: string | undefined } | undefined;
  afterEach(async () => {
    const done = current;
    current = undefined;
    await destroyWorld(done?.s);
    if (done?.cacheDir) await removeTempDir(done.cacheDir);
  });
  return () =>
    new ScenarioBuilder((s, cacheDir) => {
      current = { s, cacheDir };
    }).with(defaults);
}
