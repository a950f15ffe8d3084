/**
 * `/tandem merge` as an attacker would use it (issue 17, findings 2 and 6), against the App over
 * HTTP with signed webhooks, the GitHub stand-in, real git remotes and the real engine (Docker):
 * write access on the repository commented in is not write access on every member's, so nothing
 * merges and the reply names who was refused; and without `merge_order`, a consumer never merges
 * before the producer it depends on (links decide; a cycle falls back, and says so).
 */
import { describe, expect, it } from 'vitest';
import { API_OK, SCHEMA_OK, SUITE } from '../e2e/app-harness.ts';
import { type Scenario, USES_SCHEMA, useScenario } from '../helpers/app-scenario.ts';

const scenario = useScenario();

/** acme/schema#1 and acme/api#1 (which depends on it), evaluated and resolved. */
async function evaluated(opts: { mergeOrder: boolean; schemaBody?: string }) {
  const build = scenario().config({ extra: 'queue: { sequential: true }\n' }).mergeable();
  if (!opts.mergeOrder) build.suite(SUITE.replace(/^merge_order:.*$/m, ''));
  const w = await build
    .pull('schema', SCHEMA_OK, opts.schemaBody ?? 'Adds total.')
    .pull('api', { 'index.js': API_OK }, USES_SCHEMA)
    .start();
  expect(w.conclusions('api')).toEqual(['success']);
  return w;
}

async function commentMerge(w: Scenario, repo: string, user: string) {
  await w.postComment(repo, '/tandem merge', user);
}

describe('attack: merging with write access on one member only', () => {
  it('merges nothing and names the members the requester may not merge', async () => {
    const w = await evaluated({ mergeOrder: true });
    // Eve maintains acme/api, and can only read acme/schema.
    w.standIn.setPermission('acme', 'api', 'eve', 'write');
    await commentMerge(w, 'api', 'eve');
    expect(w.mergeCalls()).toEqual([]);
    for (const repo of ['schema', 'api']) expect(w.standIn.pullRequest('acme', repo, 1).merged).toBe(false);
    const body = w.mergeComment('api');
    expect(body).toContain(
      '⛔ **Not merged** — eve may not merge acme/schema#1 (no write access). Nothing was merged.',
    );
    expect(body).toMatch(
      /^\| `acme\/schema#1` \| `[0-9a-f]{7}` \| ⛔ refused: eve has no write access to acme\/schema \|$/m,
    );
    // Someone who writes to both merges the same set.
    for (const repo of ['schema', 'api']) w.standIn.setPermission('acme', repo, 'alice', 'write');
    await commentMerge(w, 'api', 'alice');
    expect(w.mergeCalls()).toEqual(['/repos/acme/schema/pulls/1/merge', '/repos/acme/api/pulls/1/merge']);
  });
});

describe('attack: merge order against the links', () => {
  it('without merge_order, merges the producer a consumer depends on first', async () => {
    const w = await evaluated({ mergeOrder: false });
    for (const repo of ['schema', 'api']) w.standIn.setPermission('acme', repo, 'alice', 'write');
    // Commented on the consumer (the set's first member by name): its dependency still goes first.
    await commentMerge(w, 'api', 'alice');
    expect(w.mergeCalls()).toEqual(['/repos/acme/schema/pulls/1/merge', '/repos/acme/api/pulls/1/merge']);
    expect(w.mergeComment('api')).not.toContain('form a cycle');
  });

  it('links in a cycle fall back to the listed order, and the comment says so', async () => {
    const w = await evaluated({ mergeOrder: false, schemaBody: 'Depends-On: acme/api#1' });
    for (const repo of ['schema', 'api']) w.standIn.setPermission('acme', repo, 'alice', 'write');
    await commentMerge(w, 'api', 'alice');
    expect(w.mergeCalls()).toHaveLength(2);
    expect(w.mergeComment('api')).toContain(
      '> the Depends-On links of acme/api#1, acme/schema#1 form a cycle, so they are merged in the order the evaluation listed them.',
    );
  });
});
