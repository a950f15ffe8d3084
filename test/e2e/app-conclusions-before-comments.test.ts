/**
 * A check's conclusion never waits for a comment. The comments are GitHub's content-creating
 * requests (80 a minute, shared by every replica of an installation): when that budget is spent,
 * a comment can wait a minute for room. The conclusions cost nothing of it and are what merges
 * wait on, so the verdict's early comment (said as soon as the full configuration passes) must
 * not hold them back. The stand-in holds every new comment unanswered here (the budget spent):
 * both checks complete meanwhile; released, the comments follow, the report's after the verdict's.
 */
import { describe, expect, it } from 'vitest';
import type { Executor, LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import type { EvaluationEvent } from '../../src/core/evaluation-event.ts';
import { planMatrix } from '../../src/core/matrix-plan.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { useScenario } from '../helpers/app-scenario.ts';
import { stubReport } from '../support/stub-executor.ts';
import { API_OK, SCHEMA_OK } from './app-harness.ts';

const scenario = useScenario();

/** The stub's report, after the events the engine would send: the plan, then the full configuration passing. */
class ProgressStubExecutor implements Executor {
  async run(
    spec: LinkedChangeSpec,
    _signal: AbortSignal,
    onEvent?: (e: EvaluationEvent) => void,
  ): Promise<Report> {
    const plan = planMatrix(
      spec.targets.map((t) => t.repo),
      spec.matrix,
    );
    onEvent?.({ type: 'plan', configurations: plan.configurations, mode: plan.mode });
    onEvent?.({
      type: 'configuration-done',
      id: 'full',
      attempt: 0,
      outcome: 'pass',
      passed: 1,
      total: 1,
      cached: false,
      durationMs: 1,
    });
    return stubReport(spec);
  }
}

describe('App: conclusions before comments', () => {
  it('completes every check while the comments wait for GitHub', async () => {
    const w = await scenario().with({ executor: new ProgressStubExecutor() }).start();
    const comments = w.standIn.hold({
      method: 'POST',
      path: /^\/repos\/acme\/[^/]+\/issues\/\d+\/comments$/,
    });
    await w.openPull('schema', SCHEMA_OK, '');
    await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await w.sendPull('opened', 'schema', 1);
    await w.sendPull('opened', 'api', 1);
    w.app.service.flush();
    await w.until(
      () => ['schema', 'api'].every((r) => w.tandemChecks(r).some((c) => c.status === 'completed')),
      'both checks completed while the comments are held',
    );
    for (const repo of ['schema', 'api']) {
      expect(w.tandemChecks(repo).map((c) => c.conclusion)).toEqual(['success']);
      expect(w.stickyComments(repo, 1)).toEqual([]);
    }
    // The verdict's comment was asked for, and waits.
    expect(comments.waiting()).toBeGreaterThan(0);
    comments.release();
    await w.settle();
    for (const repo of ['schema', 'api']) {
      const sticky = w.stickyComments(repo, 1);
      expect(sticky).toHaveLength(1);
      // The report's comment, not the early verdict's: it came last.
      expect(sticky[0]!.body).toMatch(/^✅ \*\*Resolved\*\*/m);
      expect(sticky[0]!.body).not.toContain('joint necessity pending');
    }
  }, 120_000);
});
