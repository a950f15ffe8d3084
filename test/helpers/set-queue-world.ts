/**
 * The world of the linked-set queue's App tests (issue 28): the App over HTTP, the GitHub stand-in
 * with real bare git repositories, and a stub executor that judges each speculative state by what
 * its tested commits hold (`git show` in the served repositories). Sets: A = acme/schema#1 ←
 * acme/api#1; B = acme/api#2 ← acme/web#1. They share acme/api's `main`, so B is tested on top of A.
 */
import { expect } from 'vitest';
import type { LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { gitOut } from '../../src/engine/git/git.ts';
import {
  API_OK,
  mergeable,
  openPull,
  SCHEMA_OK,
  sendComment,
  sendPull,
  settle,
  until,
  type World,
  type WorldOptions,
} from '../e2e/app-harness.ts';
import { StubExecutor, type StubVerdict } from '../support/stub-executor.ts';

export const MERGE_MARKER = '<!-- tandem:merge -->';
export const B_API = { 'b.js': 'module.exports = 2;\n' };
export const B_WEB = { 'index.js': 'module.exports = { page: 1, next: 2 };\n' };

/** What a tested commit holds at `path` (undefined when absent). */
export async function fileAt(w: World, repo: string, sha: string, path: string): Promise<string | undefined> {
  const bare = w.repos[repo.slice('acme/'.length)]!.bare;
  return gitOut(['show', `${sha}:${path}`], { cwd: bare }).catch(() => undefined);
}

/** A stub whose queue evaluations wait for `release()` (or their abort) while held, judged by `rule`. */
export class QueueExecutor extends StubExecutor {
  private gate: Promise<void> | undefined;
  private open = () => {};
  private readonly waiters: Array<{ n: number; ok: () => void }> = [];

  constructor(rule: (spec: LinkedChangeSpec) => Promise<StubVerdict>) {
    super(async (spec) => (isQueueRun(spec) ? rule(spec) : 'pass'));
  }

  override async run(spec: LinkedChangeSpec, signal?: AbortSignal): Promise<Report> {
    if (isQueueRun(spec)) {
      this.seen.push(spec);
      for (const x of this.waiters.filter((x) => this.seen.length >= x.n)) x.ok();
      const aborted = new Promise<void>((ok) => signal?.addEventListener('abort', () => ok()));
      if (this.gate) await Promise.race([this.gate, aborted]);
      if (signal?.aborted) throw new Error('aborted while held');
    }
    return super.run(spec);
  }

  hold(): void {
    this.gate = new Promise((ok) => {
      this.open = ok;
    });
  }

  release(): void {
    this.open();
    this.gate = undefined;
  }

  /** Queue evaluations that reached the executor (held ones included). */
  private readonly seen: LinkedChangeSpec[] = [];

  queueSpecs(): LinkedChangeSpec[] {
    return this.specs.filter(isQueueRun);
  }

  /** Resolves once `n` queue evaluations have reached the executor. */
  started(n: number): Promise<void> {
    if (this.seen.length >= n) return Promise.resolve();
    return new Promise((ok) => this.waiters.push({ n, ok }));
  }
}

export const isQueueRun = (spec: LinkedChangeSpec) => spec.name.startsWith('merge queue');
export const target = (spec: LinkedChangeSpec, repo: string) => spec.targets.find((t) => t.repo === repo)!;
export const head = (spec: LinkedChangeSpec, repo: string) => {
  const t = target(spec, repo);
  return 'head' in t ? t.head : '';
};

/** Opens sets A and B (see the top of this file). */
async function openSetsAB(w: World, api: string): Promise<void> {
  await openPull(w, 'schema', SCHEMA_OK, 'Adds total.');
  await openPull(w, 'api', { 'index.js': api }, 'Uses total.\n\nDepends-On: acme/schema#1');
  await openPull(w, 'api', B_API, 'Adds b.', 'feature-b');
  await openPull(w, 'web', B_WEB, 'Next page.\n\nDepends-On: acme/api#2');
}

/**
 * The world with sets A and B opened (or the PRs `open` opens instead) and evaluated, and alice
 * writing everywhere; `opts` for the world (a config, private repositories).
 */
export async function queueWorld(
  startWorld: (opts?: WorldOptions) => Promise<World>,
  rule: (w: World, spec: LinkedChangeSpec) => Promise<StubVerdict>,
  api = API_OK,
  setup: { open?: (w: World) => Promise<void>; opts?: WorldOptions } = {},
) {
  let world: World | undefined;
  const executor = new QueueExecutor((spec) => rule(world!, spec));
  const w = await startWorld({ ...setup.opts, executor });
  world = w;
  mergeable(w);
  for (const repo of ['schema', 'api', 'web']) w.standIn.setPermission('acme', repo, 'alice', 'write');
  await (setup.open ?? ((x: World) => openSetsAB(x, api)))(w);
  for (const pr of w.standIn.state.pulls.filter((p) => p.state === 'open'))
    await sendPull(w, 'opened', pr.repo, pr.number);
  await settle(w);
  return { w, executor };
}

/** `/tandem merge` on acme/`repo`#`n` by alice, without waiting for the App to be idle. */
export function merge(w: World, repo: string, n: number, body = '/tandem merge') {
  const comment = w.standIn.addComment('acme', repo, n, { body, user: 'alice' });
  return sendComment(w, repo, n, comment);
}

export const tipOf = async (w: World, repo: string) =>
  (await gitOut(['rev-parse', 'refs/heads/main'], { cwd: w.repos[repo]!.bare })).trim();

export function mergeComment(w: World, repo: string, n: number): string {
  const found = w.standIn.comments('acme', repo, n).filter((c) => c.body?.includes(MERGE_MARKER));
  expect(found).toHaveLength(1);
  return found[0]!.body ?? '';
}

/**
 * The two conflicting sets of the queue's worlds (A: schema#1 + api#1, B: api#2 + web#1, B tested
 * on top of A) both landed: every branch tip is the commit its set was tested on, every PR merged
 * with the queue's landing comment.
 */
export async function expectBothSetsLandedAsTested(w: World, a: LinkedChangeSpec, b: LinkedChangeSpec) {
  expect(await tipOf(w, 'schema')).toBe(head(a, 'acme/schema'));
  expect(await tipOf(w, 'api')).toBe(head(b, 'acme/api'));
  expect(await tipOf(w, 'web')).toBe(head(b, 'acme/web'));
  for (const [repo, n] of [
    ['schema', 1],
    ['api', 1],
    ['api', 2],
    ['web', 1],
  ] as const) {
    expect(w.standIn.pullRequest('acme', repo, n).merged).toBe(true);
    expect(mergeComment(w, repo, n)).toContain('Landed from the merge queue');
  }
}

/** Waits until a comment on acme/`repo`#`n` says `text` (the queue's word reached that member). */
export function untilCommentSays(w: World, repo: string, n: number, text: string): Promise<void> {
  return until(
    w,
    () => w.standIn.comments('acme', repo, n).some((c) => c.body?.includes(text)),
    `"${text}" said on acme/${repo}#${n}`,
  );
}

export const queueChecks = (w: World, repo: string) =>
  w.standIn.checkRuns('acme', repo).filter((c) => c.name === 'Tandem queue');

export const passAll = async () => 'pass' as const;
