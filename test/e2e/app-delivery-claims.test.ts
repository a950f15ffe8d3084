/**
 * A delivery is claimed in the transaction that records its work (issue 27; `delivery-claims.ts`):
 * the database refuses the record once (a trigger of the test's own, armed then disarmed: a real
 * database error inside the transaction, after the claim), the App answers 500 and keeps nothing,
 * and the same delivery, sent again under the same id, is then done once: a `Tandem` re-run and a
 * `/tandem run` evaluate the set once more (not twice, not never), a merge group gets its check.
 * Both stores: the claim and the record share one transaction on each.
 */
import { describe, expect, it } from 'vitest';
import { armStoreFault } from '../helpers/store-fault.ts';
import { StubExecutor } from '../support/stub-executor.ts';
import {
  APP_BACKENDS,
  openPull,
  SCHEMA_OK,
  sendPull,
  settle,
  tandemChecks,
  useWorld,
  type World,
} from './app-harness.ts';

/** acme/schema#1 opened and evaluated once (its `Tandem` check completed). */
async function evaluatedPull(w: World, executor: StubExecutor) {
  const pr = await openPull(w, 'schema', SCHEMA_OK, 'Adds total.');
  expect((await sendPull(w, 'opened', 'schema', pr.number)).status).toBe(200);
  await settle(w);
  expect(executor.runs).toBe(1);
  return pr;
}

describe.each(APP_BACKENDS)('deliveries claimed with their work (%s)', (backend) => {
  const startWorld = useWorld({ backend });

  it('a re-run whose evaluation could not be stored answers 500, and its redelivery evaluates once', async () => {
    const executor = new StubExecutor();
    const w = await startWorld({ executor });
    const pr = await evaluatedPull(w, executor);
    const check = tandemChecks(w, 'schema', pr.head.sha)[0]!;
    const fault = await armStoreFault(w.app.service.store, 'evaluations');
    const rerun = () =>
      w.sender.checkRunRerequested(
        {
          checkRun: {
            id: check.id,
            name: 'Tandem',
            head_sha: pr.head.sha,
            pull_requests: [{ number: pr.number }],
          },
          repository: w.standIn.repository('acme', 'schema') as unknown as Record<string, unknown>,
          installationId: w.installationId,
        },
        { deliveryId: 'rerun-1' },
      );
    // A re-run on unchanged heads reuses the published result: what it asked is its evaluation row.
    const evaluations = async () =>
      Number(
        ((await w.app.service.store.db.get('SELECT COUNT(*) AS n FROM evaluations')) as { n: number }).n,
      );
    expect((await rerun()).status).toBe(500);
    await settle(w);
    expect(await evaluations()).toBe(1);
    await fault(false);
    expect((await rerun()).status).toBe(200);
    await settle(w);
    expect(await evaluations()).toBe(2);
    // GitHub's redelivery of the same delivery once more: claimed already, nothing is asked.
    expect((await rerun()).status).toBe(200);
    await settle(w);
    expect(await evaluations()).toBe(2);
    expect(executor.runs).toBe(1);
    expect(tandemChecks(w, 'schema', pr.head.sha).map((c) => c.status)).toEqual(['completed']);
  });

  it('a `/tandem run` whose evaluation could not be stored answers 500, and its redelivery runs once and is acknowledged once', async () => {
    const executor = new StubExecutor();
    const w = await startWorld({ executor });
    const pr = await evaluatedPull(w, executor);
    const fault = await armStoreFault(w.app.service.store, 'evaluations');
    const comment = w.standIn.addComment('acme', 'schema', pr.number, {
      body: '/tandem run --fresh',
      user: 'octocat',
    });
    const send = () =>
      w.sender.issueCommentCreated(
        {
          pullRequest: w.standIn.pullRequest('acme', 'schema', pr.number) as unknown as Record<
            string,
            unknown
          >,
          repository: w.standIn.repository('acme', 'schema') as unknown as Record<string, unknown>,
          comment: comment as unknown as Record<string, unknown>,
          installationId: w.installationId,
        },
        { deliveryId: 'comment-1' },
      );
    expect((await send()).status).toBe(500);
    await settle(w);
    expect(w.standIn.reactions(Number(comment.id))).toEqual([]);
    await fault(false);
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
    await settle(w);
    expect(executor.runs).toBe(2);
    expect(w.standIn.reactions(Number(comment.id)).map((r) => r.content)).toEqual(['+1']);
  });

  it('a merge group whose row could not be stored answers 500, and its redelivery gets the check', async () => {
    const w = await startWorld({ executor: new StubExecutor() });
    const fault = await armStoreFault(w.app.service.store, 'merge_groups');
    const headSha = 'e'.repeat(40);
    const send = () =>
      w.sender.mergeGroup(
        'checks_requested',
        {
          repository: w.standIn.repository('acme', 'api') as unknown as Record<string, unknown>,
          installationId: w.installationId,
          headSha,
          headRef: `refs/heads/gh-readonly-queue/main/pr-7-${'f'.repeat(40)}`,
          baseSha: w.repos.api!.sha,
        },
        { deliveryId: 'group-1' },
      );
    expect((await send()).status).toBe(500);
    await fault(false);
    expect((await send()).status).toBe(200);
    await w.app.runtime.mergeGroups.idle();
    expect(tandemChecks(w, 'api', headSha).map((c) => c.status)).toEqual(['completed']);
    expect((await w.app.service.store.mergeGroups.all()).open).toEqual([]);
  });
});
