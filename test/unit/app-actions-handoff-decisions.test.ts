/**
 * The Actions hand-off's decisions on the in-memory GitHub port (no HTTP, no Docker): when it
 * dispatches and with what, when it refuses to, when a restart waits for the run it already
 * dispatched instead of dispatching again, and what a finished run must have left. The workflow
 * runs are played by the test (`onDispatch`), their webhooks delivered through `observeRun`.
 * The same hand-off over HTTP: test/e2e/app-actions-handoff.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ActionsExecutor } from '../../src/app/executors/actions-executor.ts';
import type { LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import { InputError } from '../../src/core/errors.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';
import { MemoryGitHub } from '../support/memory-github.ts';
import { useTempStore } from './app-fixtures.ts';
import { resolvedReport } from './report-fixtures.ts';

const temp = useTempStore('tandem-handoff-');
const silent = { info: () => {}, warn: () => {} };
const SHA = 'a'.repeat(40);
let zipDir: string | undefined;
afterEach(async () => {
  if (zipDir) await removeTempDir(zipDir);
  zipDir = undefined;
});

/** `report` zipped as upload-artifact does (Info-ZIP). */
async function reportZip(report: Report): Promise<Buffer> {
  zipDir ??= await makeTempDir('tandem-handoff-zip-');
  mkdirSync(join(zipDir, 'src'), { recursive: true });
  writeFileSync(join(zipDir, 'src', 'tandem-report.json'), JSON.stringify(report));
  execFileSync('zip', ['-q', '-j', join(zipDir, 'a.zip'), join(zipDir, 'src', 'tandem-report.json')]);
  return readFileSync(join(zipDir, 'a.zip'));
}

/** One running evaluation of `acme/api#1` (its check open on GitHub) and an executor on the fake. */
async function world(opts: { evaluator?: 'public' | 'private'; member?: string } = {}) {
  const store = await temp.open();
  const member = opts.member ?? 'Acme/API';
  const gh = new MemoryGitHub()
    .addRepo(member, { visibility: opts.member ? 'private' : 'public' })
    .addRepo('acme/suites', { visibility: opts.evaluator ?? 'private', defaultBranch: 'trunk' });
  const key = `${member.toLowerCase()}#1`;
  const id = await store.evaluations.create({ setKey: key, seed: key, installationId: 7, matrix: null });
  await store.evaluations.start(id);
  await store.evaluations.setMembers(id, [{ key, headSha: SHA }]);
  const checkRunId = await gh.createQueuedCheck(member, SHA, key, 'queued');
  await store.checkRuns.save({ pullKey: key, headSha: SHA, checkRunId, evaluationId: id });
  const fallback: string[] = [];
  const executor = new ActionsExecutor({
    store,
    fallback: {
      run: async (c) => {
        fallback.push(c.name);
        return resolvedReport();
      },
    },
    github: async () => gh,
    log: silent,
    // Polls only when asked: the tests deliver the runs' webhooks themselves.
    pollMs: 3_600_000,
  });
  const change = {
    evaluationId: id,
    name: 'the change',
    targets: [{ repo: member }],
    context: [],
    suitePath: 's/suite.yml',
    matrix: 'full',
    actions: { evaluator: 'acme/suites', workflow: 'tandem.yml', timeout_minutes: 60 },
  } as unknown as LinkedChangeSpec;
  return { store, gh, executor, change, id, key, checkRunId, fallback };
}

describe('the Actions hand-off on the in-memory GitHub', () => {
  it("dispatches once, on the evaluator's default branch, naming the PRs as their repositories spell them; links the check to the run; returns the run's report", async () => {
    const w = await world();
    w.gh.actions.addWorkflow('acme/suites', 'tandem.yml');
    const report = resolvedReport();
    const zip = await reportZip(report);
    // The runner: the run starts, its webhook arrives; it completes with its artifact.
    w.gh.actions.onDispatch = (d) => {
      const run = w.gh.actions.addRun({
        repo: 'acme/suites',
        workflow: d.workflow,
        title: `Tandem #${d.inputs['evaluation-id']} Acme/API#1`,
        status: 'in_progress',
      });
      void w.executor.observeRun('acme/suites', run).then(async () => {
        w.gh.actions.addArtifact('acme/suites', run.id, 'tandem-report', zip);
        const done = w.gh.actions.updateRun(run.id, { status: 'completed', conclusion: 'success' });
        await w.executor.observeRun('acme/suites', done);
      });
    };
    await expect(w.executor.run(w.change, new AbortController().signal)).resolves.toEqual(report);
    expect(w.gh.actions.dispatches).toEqual([
      {
        repo: 'acme/suites',
        workflow: 'tandem.yml',
        ref: 'trunk',
        inputs: {
          'pull-requests': 'Acme/API#1',
          suite: 's/suite.yml',
          matrix: 'full',
          'evaluation-id': String(w.id),
        },
      },
    ]);
    const check = w.gh.checks.find((c) => c.id === w.checkRunId);
    expect(check?.status).toBe('in_progress');
    expect(check?.detailsUrl).toMatch(/^https:\/\/github\.test\/acme\/suites\/actions\/runs\/\d+$/);
    await w.executor.close();
  });

  it('refuses a public evaluator for a private member: nothing dispatched, nothing stored', async () => {
    const w = await world({ evaluator: 'public', member: 'acme/secret' });
    w.gh.actions.addWorkflow('acme/suites', 'tandem.yml');
    const err = await w.executor.run(w.change, new AbortController().signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toContain('the evaluator repository acme/suites is more public');
    expect((err as Error).message).not.toContain('acme/secret');
    expect(w.gh.actions.dispatches).toEqual([]);
    expect(await w.store.handoffs.get(w.id)).toBeUndefined();
  });

  it('a restart waits for the run it dispatched (found among the recent runs) instead of dispatching again', async () => {
    const w = await world();
    w.gh.actions.addWorkflow('acme/suites', 'tandem.yml');
    await w.store.handoffs.save({
      evaluationId: w.id,
      evaluator: 'acme/suites',
      workflow: 'tandem.yml',
      heads: [`${w.key}@${SHA}`],
      dispatchedAt: Date.now(),
    });
    // It completed while the App was down: only the question to GitHub can tell.
    const run = w.gh.actions.addRun({
      repo: 'acme/suites',
      workflow: 'tandem.yml',
      title: `Tandem #${w.id} Acme/API#1`,
      status: 'completed',
      conclusion: 'success',
    });
    w.gh.actions.addArtifact('acme/suites', run.id, 'tandem-report', await reportZip(resolvedReport()));
    await expect(w.executor.run(w.change, new AbortController().signal)).resolves.toEqual(resolvedReport());
    expect(w.gh.actions.dispatches).toEqual([]);
    expect(w.gh.calls).toContain('recentWorkflowRuns acme/suites tandem.yml');
    expect(w.gh.calls).toContain(`runArtifact acme/suites ${run.id} tandem-report`);
    await w.executor.close();
  });

  it('a run that ended without its report artifact is an error naming the run', async () => {
    const w = await world();
    w.gh.actions.addWorkflow('acme/suites', 'tandem.yml');
    w.gh.actions.onDispatch = (d) => {
      const run = w.gh.actions.addRun({
        repo: 'acme/suites',
        workflow: d.workflow,
        title: `Tandem #${d.inputs['evaluation-id']}`,
        status: 'completed',
        conclusion: 'failure',
      });
      void w.executor.observeRun('acme/suites', run);
    };
    await expect(w.executor.run(w.change, new AbortController().signal)).rejects.toThrow(
      /the workflow run https:\/\/github\.test\/acme\/suites\/actions\/runs\/\d+ ended failure without a `tandem-report` artifact/,
    );
    await w.executor.close();
  });

  it('a workflow GitHub will not start is an error naming it, and the hand-off is forgotten (the next try dispatches)', async () => {
    const w = await world();
    await expect(w.executor.run(w.change, new AbortController().signal)).rejects.toThrow(
      'could not start the `tandem.yml` workflow of acme/suites',
    );
    expect(await w.store.handoffs.get(w.id)).toBeUndefined();
  });

  it("runs of another workflow, or naming another evaluation, are not the evaluation's", async () => {
    const w = await world();
    w.gh.actions.addWorkflow('acme/suites', 'tandem.yml');
    w.gh.actions.addWorkflow('acme/suites', 'other.yml');
    const abort = new AbortController();
    let dispatched: () => void = () => {};
    const wasDispatched = new Promise<void>((r) => {
      dispatched = r;
    });
    w.gh.actions.onDispatch = () => dispatched();
    const running = w.executor.run(w.change, abort.signal);
    await wasDispatched;
    const other = w.gh.actions.addRun({
      repo: 'acme/suites',
      workflow: 'other.yml',
      title: `Tandem #${w.id}`,
    });
    const stranger = w.gh.actions.addRun({
      repo: 'acme/suites',
      workflow: 'tandem.yml',
      title: 'Tandem #999',
    });
    await expect(w.executor.observeRun('acme/suites', other)).resolves.toBe(false);
    await expect(w.executor.observeRun('acme/suites', stranger)).resolves.toBe(false);
    await expect(w.executor.observeRun('acme/api', { ...other, path: undefined })).resolves.toBe(false);
    abort.abort(new Error('stop'));
    await expect(running).rejects.toThrow('stop');
    await w.executor.close();
    expect((await w.store.handoffs.get(w.id))?.run).toBeUndefined();
  });

  it('a change without a placement (executor: local) goes to the fallback and asks GitHub nothing', async () => {
    const w = await world();
    const { actions: _, ...local } = w.change;
    await w.executor.run(local as LinkedChangeSpec, new AbortController().signal);
    expect(w.fallback).toEqual(['the change']);
    expect(w.gh.calls.filter((c) => !c.startsWith('createQueuedCheck'))).toEqual([]);
  });
});
