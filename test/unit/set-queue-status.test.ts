/**
 * The merge queue's words (issue 28): each page names other sets only when it may, an eviction
 * names the failing configuration and the pair to blame, a refused landing says what was undone
 * and what could not be; and what a report tells the queue (pass, fail, flaky, infra).
 */
import { describe, expect, it } from 'vitest';
import type { LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import { resultOfReport } from '../../src/app/merge-command/queue-result.ts';
import { renderQueueStatus } from '../../src/report/set-queue-status.ts';
import { stubReport } from '../support/stub-executor.ts';

const seesAll = (k: string) => k;
const seesNone = () => 'another linked set';

describe('queue status text', () => {
  it('names the blocking set and the blame only where the page may', () => {
    const queued = {
      kind: 'queued' as const,
      position: 2,
      of: 3,
      waitingFor: 'its evaluation on the base tips + {{acme/api#7}}',
      blockedBy: { set: 'acme/api#7', why: 'being evaluated' },
    };
    expect(renderQueueStatus(queued, seesAll).summary).toBe(
      "Waiting for its evaluation on the base tips + acme/api#7's set. Blocked by acme/api#7's set: being evaluated.",
    );
    expect(renderQueueStatus(queued, seesNone).summary).not.toContain('acme/api#7');
    const evicted = {
      kind: 'evicted' as const,
      reason: 'failed',
      failedConfigurations: ['full'],
      blame: 'acme/api#7',
    };
    expect(renderQueueStatus(evicted, seesAll).summary).toMatch(
      /^configuration `full` failed; passes alone, fails together with acme\/api#7's set\./,
    );
    expect(renderQueueStatus(evicted, seesNone).summary).toContain('fails together with another linked set');
    const pair = { ...evicted, blame: 'acme/web#3', blameWith: 'acme/api#7' };
    expect(renderQueueStatus(pair, seesAll).summary).toMatch(
      /^configuration `full` failed; passes alone and with each, fails together with acme\/api#7's set and acme\/web#3's set\./,
    );
  });

  it('a refused landing names what was undone, and what could not be', () => {
    const t = renderQueueStatus(
      {
        kind: 'landing-refused',
        at: 'acme/api#1',
        reason: 'Update is not a fast forward',
        reverted: [{ pull: 'acme/schema#1', how: 'revert-pr', revertPull: 'acme/schema#9' }],
        unreverted: [{ pull: 'acme/web#2', reason: 'GitHub refused the revert' }],
        windowMs: 42,
      },
      seesAll,
    );
    expect(t.title).toBe('🚨 Landing refused: half-landed');
    expect(t.summary).toContain('reverted: acme/schema#1 (revert PR acme/schema#9)');
    expect(t.summary).toContain('half-landed for 42 ms');
    expect(t.summary).toContain('**Still landed, not undone:** acme/web#2 (GitHub refused the revert)');
  });
});

describe('what a report tells the queue', () => {
  const spec = {
    name: 'x',
    matrix: 'leave-one-out',
    suite: { name: 's', image: 'i' },
    targets: [
      { repo: 'acme/a', url: 'u', base: 'b', head: 'h', merge: false },
      { repo: 'acme/b', url: 'u', base: 'b', head: 'h', merge: false },
    ],
  } as unknown as LinkedChangeSpec;

  it('pass, fail (the full configuration named), flaky (never a plain failure), infra', () => {
    expect(resultOfReport(stubReport(spec, 'pass'), false).result).toEqual({ outcome: 'pass' });
    expect(resultOfReport(stubReport(spec, 'fail'), false).result).toEqual({
      outcome: 'fail',
      failedConfigurations: ['full'],
    });
    expect(resultOfReport(stubReport(spec, 'flaky'), false).result.outcome).toBe('flaky');
    expect(resultOfReport({ ...stubReport(spec), outcome: 'error' }, false).result).toEqual({
      outcome: 'infra',
    });
    expect(resultOfReport(stubReport(spec, 'pass'), true).result).toEqual({
      outcome: 'pass',
      passesAlone: true,
    });
  });
});
