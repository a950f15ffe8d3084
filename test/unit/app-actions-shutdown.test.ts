/**
 * Shutdown of the Actions hand-off (issue 7 §7): an evaluation waiting for its workflow run
 * polls GitHub; on shutdown the wait is aborted and `close()` resolves only once no poll is in
 * flight, so the store can close under it without a late `HandoffStore.get` on a closed
 * database (which used to surface as an unhandled rejection). Real SQLite file, real HTTP to the
 * GitHub stand-in; polls every millisecond so one is always in flight when the test stops it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ActionsExecutor } from '../../src/app/executors/actions-executor.ts';
import type { LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import { octokitPort } from '../../src/app/port/octokit-port.ts';
import { Store } from '../../src/app/store/store.ts';
import { runningEvaluation, standInClient, useStandIn } from './app-fixtures.ts';

const use = useStandIn('tandem-actions-close-');

const silent = { info: () => {}, warn: () => {} };

describe('ActionsExecutor shutdown', () => {
  it('close() waits for the poll in flight; nothing reads the store after it closed', async () => {
    const standIn = await use.start();
    standIn.addRepo({ owner: 'acme', name: 'suites', private: true });
    standIn.setFile(
      'acme',
      'suites',
      '.github/workflows/tandem.yml',
      readFileSync(new URL('../../examples/workflows/tandem.yml', import.meta.url), 'utf8'),
    );
    const dir = await use.dir();
    const store = await Store.open(join(dir, 'tandem.db'));
    const id = await runningEvaluation(store);

    const gh = standInClient(standIn);
    let inFlight = 0;
    let pollsAnswered = 0;
    let polling: () => void = () => {};
    const twoPolls = new Promise<void>((resolve) => {
      polling = resolve;
    });
    gh.hook.before('request', () => {
      inFlight += 1;
    });
    gh.hook.after('request', (_res, options) => {
      inFlight -= 1;
      if (String(options.url).includes('/runs') && ++pollsAnswered >= 2) polling();
    });
    const executor = new ActionsExecutor({
      store,
      fallback: { run: () => Promise.reject(new Error('not local')) },
      github: async () => octokitPort(gh),
      log: silent,
      pollMs: 1,
    });
    const abort = new AbortController();
    const change = {
      evaluationId: id,
      targets: [],
      context: [],
      suitePath: 'suites/s.yml',
      matrix: 'full',
      actions: { evaluator: 'acme/suites', workflow: 'tandem.yml', timeout_minutes: 60, ref: 'main' },
    } as unknown as LinkedChangeSpec;
    const run = executor.run(change, abort.signal);
    await twoPolls;
    expect(standIn.dispatches).toHaveLength(1);

    abort.abort(new Error('shutting down'));
    await expect(run).rejects.toThrow('shutting down');
    await executor.close();
    expect(inFlight).toBe(0);
    await store.close();
    // After close the executor ignores late events instead of touching the closed store.
    await expect(
      executor.observeRun('acme/suites', {
        id: 1,
        title: `Tandem #${id}`,
        url: 'https://example.test/run/1',
        status: 'completed',
        conclusion: 'success',
        createdAt: new Date().toISOString(),
      } as Parameters<ActionsExecutor['observeRun']>[1]),
    ).resolves.toBe(false);
  });
});
