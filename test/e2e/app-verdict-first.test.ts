/**
 * Verdict first in the sticky comment (issue 21 item 4): as soon as the full configuration is
 * in, every member's comment says resolved (joint necessity pending, k configurations to go),
 * before the evaluation publishes its complete report — and says it once, not per configuration.
 * The real engine (Docker) runs the change; its report is held back until the test has seen the
 * early comment, so "before" is an order of events, not a race.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Executor, type LinkedChangeSpec, LocalExecutor } from '../../src/app/executors/executor.ts';
import type { EvaluationEvent } from '../../src/core/evaluation-event.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { hostDefaults } from '../../src/engine/evaluation-request.ts';
import { useScenario } from '../helpers/app-scenario.ts';
import { makeTempDir } from '../helpers/git-fixtures.ts';
import { API_OK, SCHEMA_OK } from './app-harness.ts';

const scenario = useScenario();

/** The engine with its progress events passed on; its report waits for `release()`. */
class HeldReportExecutor implements Executor {
  private readonly inner: LocalExecutor;
  private releaseReport = () => {};
  private readonly held = new Promise<void>((r) => {
    this.releaseReport = r;
  });

  constructor(cacheDir: string) {
    this.inner = new LocalExecutor({ cacheDir, host: hostDefaults(process.env), sandbox: 'docker', jobs: 2 });
  }

  release(): void {
    this.releaseReport();
  }

  async run(
    spec: LinkedChangeSpec,
    signal: AbortSignal,
    onEvent?: (e: EvaluationEvent) => void,
  ): Promise<Report> {
    const report = await this.inner.run(spec, signal, onEvent);
    await this.held;
    return report;
  }
}

describe('App: the verdict first in the comment', () => {
  it('says resolved, joint necessity pending, in the comment before the complete report', async () => {
    const executor = new HeldReportExecutor(join(await makeTempDir('tandem-verdict-first-'), 'cache'));
    const w = await scenario().with({ executor }).start();
    await w.openPull('schema', SCHEMA_OK, '');
    await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await w.sendPull('opened', 'schema', 1);
    await w.sendPull('opened', 'api', 1);
    w.app.service.flush();
    const early = (repo: string) => w.stickyComments(repo, 1)[0]?.body ?? '';
    await w.until(
      () => ['schema', 'api'].every((r) => early(r).includes('joint necessity pending')),
      'the early verdict in both comments',
    );
    for (const repo of ['schema', 'api']) {
      const line = early(repo)
        .split('\n')
        .find((l) => l.startsWith('✅'))!;
      expect(line).toMatch(
        /^✅ \*\*Resolved\*\* for acme\/api#1 .*, acme\/schema#1 .* — the full configuration passes; joint necessity pending, \d+ configurations? to go\. The full report follows when the matrix is complete\.$/,
      );
      // The complete report is not out yet: the check is still running.
      expect(w.tandemChecks(repo).map((c) => c.status)).toEqual(['in_progress']);
    }
    executor.release();
    await w.settle();
    for (const repo of ['schema', 'api']) {
      const [comment] = w.stickyComments(repo, 1);
      expect(comment!.body).not.toContain('joint necessity pending');
      expect(comment!.body).toMatch(/^✅ \*\*Resolved\*\*/m);
      expect(w.tandemChecks(repo).map((c) => c.conclusion)).toEqual(['success']);
    }
    // Each comment written twice in all: the early verdict, then the report (not per configuration).
    const writes = w.standIn.requests.filter(
      (q) =>
        q.method !== 'GET' &&
        /^\/repos\/acme\/(schema|api)\/issues\/(1\/comments|comments\/\d+)$/.test(q.path) &&
        typeof (q.body as { body?: unknown } | undefined)?.body === 'string',
    );
    expect(writes).toHaveLength(4);
  }, 240_000);
});
