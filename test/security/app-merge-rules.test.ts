/**
 * `/tandem merge` against what a person could not bypass (issue 25, item 7), with the App over
 * HTTP, signed webhooks and the GitHub stand-in, which refuses merges as GitHub does (405 with
 * GitHub's messages) for a required merge queue, missing approving reviews, a code owner's
 * missing approval and unverified signatures. Before the fix the App merged the producer and
 * then met GitHub's refusal on the consumer: a half-merged set. Now the rules are read first
 * (rulesets), nothing merges while one member's are not met, and a member whose branch merges
 * through its merge queue is handed to the queue, never merged by API.
 */
import { describe, expect, it } from 'vitest';
import { API_OK, SCHEMA_OK } from '../e2e/app-harness.ts';
import { type Scenario, USES_SCHEMA, useScenario } from '../helpers/app-scenario.ts';
import { addReview, requireMergeRules } from '../support/github-standin/routes/merges.ts';
import { StubExecutor } from '../support/stub-executor.ts';

const scenario = useScenario();

/** acme/schema#1 and acme/api#1 (which depends on it), resolved; alice writes to both. */
async function evaluated(): Promise<Scenario> {
  const w = await scenario()
    .executor(new StubExecutor())
    // The member-by-member merge's own gate (the queue's is queue-precheck.ts's).
    .config({ extra: 'queue: { sequential: true }\n' })
    .mergeable(['schema', 'api'])
    .writer('alice', ['schema', 'api'])
    .pull('schema', SCHEMA_OK, 'Adds total.')
    .pull('api', { 'index.js': API_OK }, USES_SCHEMA)
    .start();
  expect(w.conclusions('api')).toEqual(['success']);
  return w;
}

const merged = (w: Scenario, repo: string) => w.standIn.pullRequest('acme', repo, 1).merged;
const BOTH = ['/repos/acme/schema/pulls/1/merge', '/repos/acme/api/pulls/1/merge'];

describe('attack: merging past a required merge queue', () => {
  it('merges nothing by API and says the member merges through its merge queue', async () => {
    const w = await evaluated();
    requireMergeRules(w.standIn.state, 'acme', 'api', 'main', { mergeQueue: true });
    await w.postComment('api', '/tandem merge', 'alice');
    expect(w.mergeCalls()).toEqual([]);
    expect(merged(w, 'schema')).toBe(false);
    const body = w.mergeComment('api');
    expect(body).toContain(
      'this repository merges through its merge queue: add acme/api#1 to its merge queue',
    );
    expect(body).toContain('is evaluated again and /tandem merge merges the others');
  });
});

describe('attack: merging past required reviews, code owners and signatures', () => {
  it('merges nothing until the consumer has its approving review', async () => {
    const w = await evaluated();
    requireMergeRules(w.standIn.state, 'acme', 'api', 'main', { approvals: 1 });
    await w.postComment('api', '/tandem merge', 'alice');
    expect(w.mergeCalls()).toEqual([]);
    expect(w.mergeComment('api')).toContain(
      'its branch requires 1 approving review by people with write access; it has 0',
    );
    // A reader's approval does not count; a writer's does.
    const head = w.standIn.pullRequest('acme', 'api', 1).head.sha;
    addReview(w.standIn.state, 'acme', 'api', 1, { user: 'mallory', state: 'APPROVED', commitId: head });
    await w.postComment('api', '/tandem merge', 'alice');
    expect(w.mergeCalls()).toEqual([]);
    w.standIn.setPermission('acme', 'api', 'bob', 'write');
    addReview(w.standIn.state, 'acme', 'api', 1, { user: 'bob', state: 'APPROVED', commitId: head });
    await w.postComment('api', '/tandem merge', 'alice');
    expect(w.mergeCalls()).toEqual(BOTH);
    expect(merged(w, 'api')).toBe(true);
  });

  it("merges nothing until a code owner approved and every commit's signature is verified", async () => {
    const w = await evaluated();
    requireMergeRules(w.standIn.state, 'acme', 'api', 'main', { codeOwners: true, signatures: true });
    w.standIn.setFile('acme', 'api', '.github/CODEOWNERS', '* @carol\n');
    const pr = w.standIn.state.pull('acme', 'api', 1)!;
    pr.files = [{ filename: 'index.js', status: 'modified', additions: 2, deletions: 1 }];
    await w.postComment('api', '/tandem merge', 'alice');
    expect(w.mergeCalls()).toEqual([]);
    // GitHub would notify a mention: the comment breaks it (a zero-width space after `@`).
    expect(w.mergeComment('api')).toMatch(/it waits on a code owner's approval \(@\u200b?carol\)/);

    w.standIn.setPermission('acme', 'api', 'carol', 'write');
    addReview(w.standIn.state, 'acme', 'api', 1, { user: 'carol', state: 'APPROVED', commitId: pr.headSha });
    await w.postComment('api', '/tandem merge', 'alice');
    expect(w.mergeCalls()).toEqual([]);
    expect(w.mergeComment('api')).toContain(
      `its branch requires verified signatures; 1 commit (${pr.headSha.slice(0, 7)}) is not verified`,
    );

    pr.commits = [{ sha: pr.headSha, message: pr.title, parents: [pr.baseSha], verified: true }];
    await w.postComment('api', '/tandem merge', 'alice');
    expect(w.mergeCalls()).toEqual(BOTH);
  });
});

describe('attack: merging past branch protection the App may not read', () => {
  it("merges nothing while GitHub reports the member blocked by its protection's review rule", async () => {
    const w = await evaluated();
    // Classic protection needs `administration` to read (403 for the App); GitHub's `blocked` says it.
    requireMergeRules(w.standIn.state, 'acme', 'api', 'main', { approvals: 1 }, 'protection');
    await w.postComment('api', '/tandem merge', 'alice');
    expect(w.mergeCalls()).toEqual([]);
    expect(w.mergeComment('api')).toContain('GitHub reports it blocked by its branch rules');
    w.standIn.setPermission('acme', 'api', 'bob', 'write');
    const head = w.standIn.pullRequest('acme', 'api', 1).head.sha;
    addReview(w.standIn.state, 'acme', 'api', 1, { user: 'bob', state: 'APPROVED', commitId: head });
    await w.postComment('api', '/tandem merge', 'alice');
    expect(w.mergeCalls()).toEqual(BOTH);
  });
});
