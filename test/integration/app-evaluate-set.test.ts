/**
 * The App's evaluation corridor (`evaluations/evaluate-set.ts`) on its own: the org's
 * `tandem.yml`, the suite, the linked set and the suite's hidden files read from the GitHub
 * stand-in over real HTTP, into an executor the test holds. Covers where the corridor ends for
 * each input (config missing or invalid, no suite, a path's own stop, a suite that cannot be
 * fetched, an abort) and what the executor is handed when it runs.
 */
import { access } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type EvaluateSetRequest, evaluateSet } from '../../src/app/evaluations/evaluate-set.ts';
import { OrgConfigCache } from '../../src/app/evaluations/org-config-cache.ts';
import type { Executor, LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import { recordPull } from '../../src/app/linking/record-pull.ts';
import { octokitPort } from '../../src/app/port/octokit-port.ts';
import { pullInfoOf } from '../../src/core/pull-request.schema.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { type StandIn, startGitHubStandIn } from '../support/github-standin/index.ts';
import { standInClient, UNIT_SUITE, useTempStore } from '../unit/app-fixtures.ts';
import { resolvedReport } from '../unit/report-fixtures.ts';

const SUITE = UNIT_SUITE('merge_order: [acme/schema, acme/api]\n');
const CONFIG = `evaluator: acme/suites
suites:
  - name: s
    repos: [acme/api, acme/schema]
    path: s/suite.yml
matrix: full
`;

/** Records what it is handed; answers with `answer` (or waits for the abort when told to). */
class StubExecutor implements Executor {
  readonly specs: LinkedChangeSpec[] = [];
  hiddenSeen: string[] = [];
  private began: () => void = () => {};
  /** Settles when the first run has begun. */
  readonly started = new Promise<void>((ok) => {
    this.began = ok;
  });
  constructor(private readonly answer: 'report' | 'hold' = 'report') {}
  async run(spec: LinkedChangeSpec, signal: AbortSignal): Promise<Report> {
    this.specs.push(spec);
    // The hidden file is on disk while the executor runs (and gone after, see the test).
    await access(`${spec.suiteDir}/hidden/t.test.js`);
    this.hiddenSeen.push(spec.suiteDir);
    this.began();
    if (this.answer === 'hold')
      return new Promise((_ok, fail) => signal.addEventListener('abort', () => fail(signal.reason)));
    return resolvedReport();
  }
}

const temp = useTempStore('tandem-evaluate-set-');
let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

async function world(opts: { config?: string | null; suite?: boolean } = {}) {
  const si = await startGitHubStandIn();
  standIn = si;
  for (const name of ['api', 'schema', 'web', '.github']) si.addRepo({ owner: 'acme', name });
  si.addRepo({ owner: 'acme', name: 'suites', private: true });
  if (opts.config !== null) si.setFile('acme', '.github', '.github/tandem.yml', opts.config ?? CONFIG);
  if (opts.suite !== false) {
    si.setFile('acme', 'suites', 's/suite.yml', SUITE);
    si.setFile('acme', 'suites', 's/hidden/t.test.js', 'test\n');
  }
  const store = await temp.open();
  const installationId = si.installationId('acme');
  const open = async (repo: string, body: string, digit: string) => {
    const pr = si.addPullRequest({
      owner: 'acme',
      repo,
      title: repo,
      body,
      headRef: 'feature',
      headSha: digit.repeat(40),
      baseRef: 'main',
      baseSha: '0'.repeat(40),
    });
    await recordPull(store, pullInfoOf(pr), installationId);
  };
  await open('schema', 'Depends-On: acme/api#1', '1');
  await open('api', 'Depends-On: acme/schema#1', '2');
  const gh = octokitPort(standInClient(si));
  const run = (
    executor: Executor,
    over: Partial<EvaluateSetRequest> = {},
    signal = new AbortController().signal,
  ) =>
    evaluateSet(
      { store, executor, configs: new OrgConfigCache({ ttlMs: 60_000 }) },
      gh,
      {
        installationId,
        org: 'acme',
        repo: 'acme/api',
        evaluationId: 7,
        matrix: undefined,
        seedFor: () => 'acme/api#1',
        ...over,
      },
      signal,
    );
  return { si, store, run };
}

describe('evaluateSet', () => {
  it('hands the executor the linked set, the fetched suite and the configured matrix', async () => {
    const w = await world();
    const executor = new StubExecutor();
    const seen: string[][] = [];
    const out = await w.run(executor, {
      onSet: async (set) => {
        seen.push(set.members.map((m) => `${m.ref.repo}#${m.ref.number}`));
        return undefined;
      },
    });
    expect(out.kind).toBe('done');
    if (out.kind !== 'done') return;
    expect(seen).toEqual([['api#1', 'schema#1']]);
    expect(executor.specs).toHaveLength(1);
    const spec = executor.specs[0]!;
    expect(spec).toMatchObject({ evaluationId: 7, matrix: 'full', suitePath: 's/suite.yml' });
    expect(spec.name).toBe('linked change acme/api#1 acme/schema#1');
    expect(spec.targets.map((t) => [t.repo, 'head' in t ? t.head : ''])).toEqual([
      ['acme/api', '2'.repeat(40)],
      ['acme/schema', '1'.repeat(40)],
    ]);
    expect(out.mergeOrder).toEqual(['acme/schema', 'acme/api']);
    expect(out.view.mergeOrder).toEqual(['acme/schema', 'acme/api']);
    expect(out.report.outcome).toBe(resolvedReport().outcome);
    // The suite's folder (with the hidden files) is removed once the run is over.
    await expect(access(executor.hiddenSeen[0]!)).rejects.toThrow();
  });

  it("a needed PR's head is part of the fingerprint a published result is reused by", async () => {
    const w = await world();
    // An outsider's PR needs acme/api#1 without api's writers having confirmed it: api#1 is
    // evaluated with it but stays outside its set.
    const outsider = w.si.addPullRequest({
      owner: 'acme',
      repo: 'schema',
      title: 'schema',
      body: 'Depends-On: acme/api#1',
      headRef: 'mine',
      headSha: '3'.repeat(40),
      baseRef: 'main',
      baseSha: '0'.repeat(40),
      user: 'mallory',
    });
    await recordPull(w.store, pullInfoOf(outsider), w.si.installationId('acme'));
    const seen: Array<{ needed: string[]; fingerprint: string }> = [];
    const evaluate = () =>
      w.run(new StubExecutor(), {
        repo: 'acme/schema',
        seedFor: () => `acme/schema#${outsider.number}`,
        reuse: async (set, fingerprint) => {
          seen.push({ needed: set.needed.map((m) => `${m.ref.repo}#${m.ref.number}`), fingerprint });
          return undefined;
        },
      });
    expect((await evaluate()).kind).toBe('done');
    expect((await evaluate()).kind).toBe('done');
    w.si.updatePullRequest('acme', 'api', 1, { headSha: '4'.repeat(40) });
    expect((await evaluate()).kind).toBe('done');
    expect(seen[0]!.needed).toContain('api#1');
    expect(seen[1]!.fingerprint).toBe(seen[0]!.fingerprint);
    expect(seen[2]!.fingerprint).not.toBe(seen[0]!.fingerprint);
  });

  it('takes pinned repositories at their exact commits and the name the path gives', async () => {
    const w = await world();
    const executor = new StubExecutor();
    const out = await w.run(executor, {
      matrix: 'leave-one-out',
      // Every member repository pinned, as the linked-set queue evaluates a speculative state.
      pinned: [
        { repo: 'acme/api', base: 'b'.repeat(40), head: 'c'.repeat(40) },
        { repo: 'acme/schema', base: 'd'.repeat(40), head: 'e'.repeat(40) },
      ],
      name: (n) => `merge group (${n})`,
    });
    expect(out.kind).toBe('done');
    const spec = executor.specs[0]!;
    expect(spec.matrix).toBe('leave-one-out');
    expect(spec.name).toBe('merge group (linked change acme/api#1 acme/schema#1)');
    expect(spec.targets.find((t) => t.repo === 'acme/api')).toMatchObject({
      base: 'b'.repeat(40),
      head: 'c'.repeat(40),
      merge: false,
    });
    expect(spec.targets.find((t) => t.repo === 'acme/schema')).toMatchObject({
      base: 'd'.repeat(40),
      head: 'e'.repeat(40),
      merge: false,
    });
  });

  it('ends at the config when tandem.yml is missing or invalid, naming the field', async () => {
    const missing = await world({ config: null });
    const executor = new StubExecutor();
    expect(await missing.run(executor)).toEqual({ kind: 'config', load: { kind: 'missing' } });
    await standIn?.close();
    const invalid = await world({ config: 'evaluator: 42\n' });
    const out = await invalid.run(executor);
    expect(out.kind).toBe('config');
    if (out.kind === 'config' && out.load.kind === 'invalid') expect(out.load.field).toBe('evaluator');
    else expect.unreachable(`expected an invalid config, got ${JSON.stringify(out)}`);
    expect(executor.specs).toHaveLength(0);
  });

  it('ends without a set when no suite covers the repository, or the path says why not', async () => {
    const w = await world();
    const executor = new StubExecutor();
    expect((await w.run(executor, { repo: 'acme/web' })).kind).toBe('no-suite');
    const skip = { title: 'no pull request', reason: 'none named' };
    expect(await w.run(executor, { seedFor: () => skip })).toMatchObject({ kind: 'skipped', skip });
    expect(await w.run(executor, { onSet: async () => skip })).toMatchObject({ kind: 'skipped', skip });
    expect(executor.specs).toHaveLength(0);
  });

  it('a suite that cannot be fetched fails with the set known and no host path in the message', async () => {
    const w = await world({ suite: false });
    const out = await w.run(new StubExecutor());
    expect(out.kind).toBe('failed');
    if (out.kind !== 'failed') return;
    expect(out.set.members).toHaveLength(2);
    expect(out.message).toContain('s/suite.yml');
    expect(out.message).not.toMatch(/tandem-suite-/);
  });

  it('an abort during the run ends aborted, not failed', async () => {
    const w = await world();
    const executor = new StubExecutor('hold');
    const controller = new AbortController();
    const out = w.run(executor, {}, controller.signal);
    await executor.started;
    controller.abort(new Error('superseded'));
    expect(await out).toEqual({ kind: 'aborted' });
  });
});
