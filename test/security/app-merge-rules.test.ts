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
import {
  API_OK,
  mergeable,
  openPull,
  postComment,
  SCHEMA_OK,
  sendPull,
  settle,
  tandemChecks,
  useWorld,
  type World,
} from '../e2e/app-harness.ts';
import { addReview, requireMergeRules } from '../support/github-standin/routes/merges.ts';
import { StubExecutor } from '../support/stub-executor.ts';

const startWorld = useWorld();
const MERGE_MARKER = '<!-- tandem:merge -->';

/** acme/schema#1 and acme/api#1 (which depends on it), resolved; alice writes to both. */
async function evaluated(): Promise<World> {
  const w = await startWorld({ executor: new StubExecutor() });
  mergeable(w, ['schema', 'api']);
  for (const name of ['schema', 'api']) w.standIn.setPermission('acme', name, 'alice', 'write');
  await openPull(w, 'schema', SCHEMA_OK, 'Adds total.');
  const api = await openPull(w, 'api', { 'index.js': API_OK }, 'Uses total.\n\nDepends-On: acme/schema#1');
  await sendPull(w, 'opened', 'schema', 1);
  await sendPull(w, 'opened', 'api', 1);
  await settle(w);
  expect(tandemChecks(w, 'api', api.head.sha).map((c) => c.conclusion)).toEqual(['success']);
  return w;
}

const mergeCalls = (w: World) =>
  w.standIn.requests.filter((r) => r.method === 'PUT' && r.path.endsWith('/merge')).map((r) => r.path);
const mergeComment = (w: World, repo: string) =>
  w.standIn.comments('acme', repo, 1).find((c) => c.body?.includes(MERGE_MARKER))?.body ?? '';
const merged = (w: World, repo: string) => w.standIn.pullRequest('acme', repo, 1).merged;
const BOTH = ['/repos/acme/schema/pulls/1/merge', '/repos/acme/api/pulls/1/merge'];

describe('attack: merging past a required merge queue', () => {
  it('merges nothing by API and says the member merges through its merge queue', async () => {
    const w = await evaluated();
    requireMergeRules(w.standIn.state, 'acme', 'api', 'main', { mergeQueue: true });
    await postComment(w, 'api', '/tandem merge', 'alice');
    expect(mergeCalls(w)).toEqual([]);
    expect(merged(w, 'schema')).toBe(false);
    const body = mergeComment(w, 'api');
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
    await postComment(w, 'api', '/tandem merge', 'alice');
    expect(mergeCalls(w)).toEqual([]);
    expect(mergeComment(w, 'api')).toContain(
      'its branch requires 1 approving review by people with write access; it has 0',
    );
    // A reader's approval does not count; a writer's does.
    const head = w.standIn.pullRequest('acme', 'api', 1).head.sha;
    addReview(w.standIn.state, 'acme', 'api', 1, { user: 'mallory', state: 'APPROVED', commitId: head });
    await postComment(w, 'api', '/tandem merge', 'alice');
    expect(mergeCalls(w)).toEqual([]);
    w.standIn.setPermission('acme', 'api', 'bob', 'write');
    addReview(w.standIn.state, 'acme', 'api', 1, { user: 'bob', state: 'APPROVED', commitId: head });
    await postComment(w, 'api', '/tandem merge', 'alice');
    expect(mergeCalls(w)).toEqual(BOTH);
    expect(merged(w, 'api')).toBe(true);
  });

  it("merges nothing until a code owner approved and every commit's signature is verified", async () => {
    const w = await evaluated();
    requireMergeRules(w.standIn.state, 'acme', 'api', 'main', { codeOwners: true, signatures: true });
    w.standIn.setFile('acme', 'api', '.github/CODEOWNERS', '* @carol\n');
    const pr = w.standIn.state.pull('acme', 'api', 1)!;
    pr.files = [{ filename: 'index.js', status: 'modified', additions: 2, deletions: 1 }];
    await postComment(w, 'api', '/tandem merge', 'alice');
    expect(mergeCalls(w)).toEqual([]);
    // GitHub would notify a mention: the comment breaks it (a zero-width space after `@`).
    expect(mergeComment(w, 'api')).toMatch(/it waits on a code owner's approval \(@\u200b?carol\)/);

    w.standIn.setPermission('acme', 'api', 'carol', 'write');
    addReview(w.standIn.state, 'acme', 'api', 1, { user: 'carol', state: 'APPROVED', commitId: pr.headSha });
    await postComment(w, 'api', '/tandem merge', 'alice');
    expect(mergeCalls(w)).toEqual([]);
    expect(mergeComment(w, 'api')).toContain(
      `its branch requires verified signatures; 1 commit (${pr.headSha.slice(0, 7)}) is not verified`,
    );

    pr.commits = [{ sha: pr.headSha, message: pr.title, parents: [pr.baseSha], verified: true }];
    await postComment(w, 'api', '/tandem merge', 'alice');
    expect(mergeCalls(w)).toEqual(BOTH);
  });
});

describe('attack: merging past branch protection the App may not read', () => {
  it("merges nothing while GitHub reports the member blocked by its protection's review rule", async () => {
    const w = await evaluated();
    // Classic protection needs `administration` to read (403 for the App); GitHub's `blocked` says it.
    requireMergeRules(w.standIn.state, 'acme', 'api', 'main', { approvals: 1 }, 'protection');
    await postComment(w, 'api', '/tandem merge', 'alice');
    expect(mergeCalls(w)).toEqual([]);
    expect(mergeComment(w, 'api')).toContain('GitHub reports it blocked by its branch rules');
    w.standIn.setPermission('acme', 'api', 'bob', 'write');
    const head = w.standIn.pullRequest('acme', 'api', 1).head.sha;
    addReview(w.standIn.state, 'acme', 'api', 1, { user: 'bob', state: 'APPROVED', commitId: head });
    await postComment(w, 'api', '/tandem merge', 'alice');
    expect(mergeCalls(w)).toEqual(BOTH);
  });
});
