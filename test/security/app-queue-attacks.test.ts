/**
 * `/tandem merge` and `/tandem dequeue` as an attacker would use them against the linked-set
 * merge QUEUE (the default path; app-merge-{rules,rights}.test.ts attack the sequential one), with
 * the App over HTTP, signed webhooks, the GitHub stand-in and real git repositories; a stub engine
 * passes every speculative state. The set: acme/schema#1 ← acme/api#1.
 * - write access on one member is not write access on the set: nothing is queued, it says why;
 * - a branch rule the App may not bypass (a required review) keeps the set out of the queue;
 * - a member retargeted, or pushed to, after it was tested never lands (even with the webhook
 *   lost): the landed SHA is only ever the tested commit, on the branch it was tested for;
 * - a non-writer's `/tandem dequeue` removes nothing.
 */
import { describe, expect, it } from 'vitest';
import { API_OK, SCHEMA_OK } from '../e2e/app-harness.ts';
import { type Scenario, USES_SCHEMA, useScenario } from '../helpers/app-scenario.ts';
import { commitOn } from '../helpers/git-fixtures.ts';
import { passAll, QueueExecutor, queueChecks, tipOf } from '../helpers/set-queue-world.ts';
import { requireMergeRules } from '../support/github-standin/routes/merges.ts';

const scenario = useScenario();

/** The set evaluated, alice writing to both repositories, the queue's engine held when asked. */
async function queued(opts: { hold?: boolean; setup?: (s: Scenario) => void } = {}) {
  const executor = new QueueExecutor(passAll);
  if (opts.hold) executor.hold();
  const s = await scenario()
    .executor(executor)
    .mergeable()
    .writer('alice', ['schema', 'api'])
    .setup((w) => opts.setup?.(w))
    .pull('schema', SCHEMA_OK, 'Adds total.')
    .pull('api', { 'index.js': API_OK }, USES_SCHEMA)
    .start();
  return { s, executor, tips: { schema: await tipOf(s, 'schema'), api: await tipOf(s, 'api') } };
}

/** A comment by `user` on acme/`repo`#1, announced without waiting for the App to be idle. */
function comment(s: Scenario, repo: string, body: string, user: string) {
  return s.sendComment(repo, 1, s.standIn.addComment('acme', repo, 1, { body, user }));
}

const reactions = (s: Scenario) =>
  s.standIn.requests
    .filter((r) => r.path.includes('/reactions'))
    .map((r) => (r.body as { content?: string }).content);

async function nothingLanded(s: Scenario, tips: { schema: string; api: string }) {
  expect(await tipOf(s, 'schema')).toBe(tips.schema);
  expect(await tipOf(s, 'api')).toBe(tips.api);
  for (const repo of ['schema', 'api']) expect(s.standIn.pullRequest('acme', repo, 1).merged).toBe(false);
}

describe('attack on the queue: who may queue and dequeue', () => {
  it('a writer of one member only queues nothing, and the comment says why', async () => {
    const { s, executor, tips } = await queued();
    s.standIn.setPermission('acme', 'api', 'eve', 'write');
    await s.postComment('api', '/tandem merge', 'eve');
    await s.settle();
    expect(executor.queueSpecs()).toHaveLength(0);
    expect(s.mergeComment('api')).toMatch(/Not queued[\s\S]*eve has no write access to acme\/schema/);
    expect(reactions(s).at(-1)).toBe('confused');
    await nothingLanded(s, tips);
  });

  it("a reader's /tandem dequeue removes nothing: the set stays queued and lands", async () => {
    const { s, executor } = await queued({ hold: true });
    s.standIn.setPermission('acme', 'api', 'eve', 'read');
    await comment(s, 'api', '/tandem merge', 'alice');
    await executor.started(1);
    await comment(s, 'api', '/tandem dequeue', 'eve');
    await s.until(() => reactions(s).includes('confused'), "eve's dequeue refused");
    expect(reactions(s).at(-1)).toBe('confused');
    expect(s.mergeComment('api')).not.toContain('Removed from the merge queue');
    executor.release();
    await s.settle();
    expect(s.mergeComment('api')).toContain('Landed from the merge queue');
  });
});

describe('attack on the queue: rules the App may not bypass', () => {
  it('a member missing its required review is refused before the set enters the queue', async () => {
    const { s, executor, tips } = await queued({
      setup: (w) => requireMergeRules(w.standIn.state, 'acme', 'api', 'main', { approvals: 1 }),
    });
    await s.postComment('api', '/tandem merge', 'alice');
    await s.settle();
    expect(executor.queueSpecs()).toHaveLength(0);
    expect(s.mergeComment('schema')).toMatch(/Not queued[\s\S]*acme\/api#1: .*approv/i);
    expect(queueChecks(s, 'api')).toHaveLength(0);
    await nothingLanded(s, tips);
  });
});

describe('attack on the queue: a member changed after it was tested', () => {
  it('a member retargeted to another base after it was queued never lands on the old one', async () => {
    const { s, executor, tips } = await queued({ hold: true });
    await comment(s, 'api', '/tandem merge', 'alice');
    await executor.started(1);
    // Retargeted with no webhook arriving (lost): the landing itself must notice.
    s.standIn.updatePullRequest('acme', 'api', 1, { baseRef: 'release' });
    executor.release();
    await s.settle();
    await nothingLanded(s, tips);
    expect(s.mergeComment('api')).toMatch(/Landing refused[\s\S]*acme\/api#1 now targets release/);
  });

  it("a member's head pushed after its tested commit was built never lands untested", async () => {
    const { s, executor, tips } = await queued({ hold: true });
    await comment(s, 'api', '/tandem merge', 'alice');
    await executor.started(1);
    const pushed = await commitOn(s.repos.api!, 'feature', { 'evil.js': 'x\n' });
    s.standIn.updatePullRequest('acme', 'api', 1, { headSha: pushed });
    executor.release();
    await s.settle();
    await nothingLanded(s, tips);
    expect(s.mergeComment('api')).toMatch(/Landing refused[\s\S]*acme\/api#1's head moved/);
  });
});
