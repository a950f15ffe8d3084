/**
 * The linked-set queue in the App's SQLite file (issue 28): the logic's state, the items and the
 * speculative evaluations outlive the process, so a restart mid-queue resumes — an evaluation
 * left running is found again, and an item keeps its members, check runs and status.
 */
import { describe, expect, it } from 'vitest';
import { useTempStore } from './app-fixtures.ts';

const temp = useTempStore('tandem-set-queue-');

const member = (pull: string, headSha: string) => ({
  pull,
  repo: pull.slice(0, pull.indexOf('#')),
  baseBranch: 'main',
  headSha,
  viaMergeQueue: false,
});

describe('store.setQueue', () => {
  it('keeps the queue state, items and running evaluations across a restart', async () => {
    const first = await temp.open();
    first.setQueue.saveState(3, { items: ['q1'], lanes: { x: 1 } });
    first.setQueue.addItem({
      id: 'q1',
      installationId: 3,
      seed: 'acme/api#1',
      requestedBy: 'alice',
      members: [member('acme/schema#1', 'a'.repeat(40)), member('acme/api#1', 'b'.repeat(40))],
    });
    first.setQueue.setCheckRun('q1', 'acme/api#1', 77);
    const run = { itemId: 'q1', ahead: ['q0'], attempt: 0, diagnostic: null };
    first.setQueue.startRun({
      ...run,
      tested: [{ repo: 'acme/api', baseBranch: 'main', base: 'c', sha: 'd' }],
    });
    first.close();

    const second = await temp.open();
    expect(second.setQueue.state(3)).toEqual({ items: ['q1'], lanes: { x: 1 } });
    expect(second.setQueue.installations()).toEqual([3]);
    expect(second.setQueue.activeItemOf('acme/schema#1')?.id).toBe('q1');
    expect(second.setQueue.item('q1')).toMatchObject({ status: 'queued', checkRuns: { 'acme/api#1': 77 } });
    expect(second.setQueue.runningRuns()).toEqual([
      { ...run, tested: [{ repo: 'acme/api', baseBranch: 'main', base: 'c', sha: 'd' }], state: 'running' },
    ]);
    // The result is kept; the newest passing evaluation is what lands.
    second.setQueue.finishRun(run, 'done', { outcome: 'pass' });
    expect(second.setQueue.runningRuns()).toEqual([]);
    expect(second.setQueue.lastPass('q1')?.tested[0]?.sha).toBe('d');
    second.setQueue.setStatus('q1', 'evicted', 'fails');
    expect(second.setQueue.activeItemOf('acme/schema#1')).toBeUndefined();
    expect(second.setQueue.item('q1')?.reason).toBe('fails');
  });
});
