import { describe, expect, it } from 'vitest';
import { API_OK, type ObservedExecutor, SCHEMA_OK } from '../e2e/app-harness.ts';
import { announceOpened, checksOnHeads } from '../helpers/app-pulls.ts';
import { BOTH_MERGED, type Scenario, useScenario } from '../helpers/app-scenario.ts';

const scenario = useScenario();
const MERGE_MARKER = '<!-- tandem:merge -->';

async function world(): Promise<{ w: Scenario; executor: ObservedExecutor }> {
  const w = await scenario().observe().config({ extra: 'queue: { sequential: true }\n' }).mergeable().start();
  return { w, executor: w.observed };
}

const targetsOf = (executor: ObservedExecutor) =>
  executor.runs.map((r) => r.spec.targets.map((t) => t.repo).sort());

describe('attack: a one-sided link joins nobody', () => {
  it("an outsider's Depends-On never puts their PR in the maintainers' set, comment, check or merge", async () => {
    const { w, executor } = await world();
    for (const repo of ['schema', 'api']) w.standIn.setPermission('acme', repo, 'alice', 'write');
    await w.openPull('schema', SCHEMA_OK, 'Adds total.');
    await w.openPull('api', { 'index.js': API_OK }, 'Uses total.\n\nDepends-On: acme/schema#1');
    // Mallory can open a PR in acme/web (a public repository) and writes nowhere.
    const evil = await w.openPull(
      'web',
      { 'index.js': "module.exports = { page: 1, backdoor: 'on main' };\n" },
      'Tiny fix.\n\nDepends-On: acme/api#1',
      'feature',
      'main',
      'mallory',
    );
    await announceOpened(w, ['schema', 'api', 'web']);
    await w.settle();

    // The maintainers' set was evaluated as theirs alone; the outsider's PR was evaluated as its
    // own set, needing theirs (it may), and published only on itself.
    expect(targetsOf(executor)).toContainEqual(['acme/api', 'acme/schema']);
    expect(targetsOf(executor).filter((t) => t.includes('acme/web'))).toEqual([
      ['acme/api', 'acme/schema', 'acme/web'],
    ]);
    for (const repo of ['schema', 'api']) {
      expect(w.tandemChecks(repo).map((c) => c.conclusion)).toEqual(['success']);
      expect(w.linkedLine(repo)).toContain('acme/api#1');
      expect(w.linkedLine(repo)).not.toContain('acme/web#1');
    }
    // Named, folded, and said why.
    const apiComment = w.stickyComments('api', 1)[0]!.body!;
    expect(apiComment).toMatch(
      /<details><summary>1 link\(s\) of other pull requests not followed<\/summary>\s+- acme\/web#1 → acme\/api#1: not followed \(needs a writer's confirmation\)/,
    );
    expect(w.linkedLine('web')).toContain('acme/web#1');
    expect(w.linkedLine('web')).not.toContain('acme/api#1');
    expect(w.tandemChecks('web', evil.head.sha)).toHaveLength(1);

    // The maintainer merges their set: the outsider's PR is not part of it.
    await w.postComment('api', '/tandem merge', 'alice');
    expect(w.mergeCalls()).toEqual(BOTH_MERGED);
    expect(w.standIn.pullRequest('acme', 'web', 1).merged).toBe(false);
    expect(w.standIn.comments('acme', 'web', 1).some((c) => c.body?.includes(MERGE_MARKER))).toBe(false);
  });

  it('a writer of the joined repository confirms the link with /tandem link: then it joins', async () => {
    const { w } = await world();
    w.standIn.setPermission('acme', 'api', 'alice', 'write');
    w.standIn.setPermission('acme', 'web', 'alice', 'write');
    await w.openPull('schema', SCHEMA_OK, 'Adds total.');
    await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await w.openPull(
      'web',
      { 'index.js': 'module.exports = { page: 1, total: true };\n' },
      'Depends-On: acme/api#1',
      'feature',
      'main',
      'mallory',
    );
    await announceOpened(w, ['schema', 'api', 'web']);
    await w.settle();
    expect(w.linkedLine('api')).not.toContain('acme/web#1');

    // Alice writes to acme/api and confirms from acme/web#1's side: the link counts both ways.
    await w.postComment('web', '/tandem link acme/api#1', 'alice');
    for (const repo of ['schema', 'api', 'web']) {
      expect(w.linkedLine(repo)).toContain('acme/web#1');
      expect(w.linkedLine(repo)).toContain('acme/api#1');
    }
  });
});

describe("attack: limits hit through someone else's links", () => {
  it("4,000 Depends-On lines fail nobody else's check and fill nobody else's comment", async () => {
    const { w } = await world();
    const schema = await w.openPull('schema', SCHEMA_OK, 'Depends-On: acme/api#1');
    const api = await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    const lines = ['Depends-On: acme/api#1', 'Depends-On: acme/schema#1'];
    for (let i = 0; i < 3_998; i++) lines.push(`Depends-On: acme/${i % 2 ? 'api' : 'schema'}#${100 + i}`);
    const flood = await w.openPull(
      'web',
      { 'index.js': 'module.exports = { page: 1 };\n' },
      lines.join('\n'),
      'feature',
      'main',
      'mallory',
    );
    await announceOpened(w, ['schema', 'api', 'web']);
    await w.settle();

    for (const { repo, checks } of checksOnHeads(w, { schema, api })) {
      // Their own verdict, once: never "not evaluated" because of the flood.
      expect(checks.map((c) => c.conclusion)).toEqual(['success']);
      expect(checks[0]!.output.title ?? '').not.toMatch(/not evaluated/i);
      const body = w.stickyComments(repo, 1)[0]!.body!;
      expect(body.length).toBeLessThan(8_000);
      expect(body.split('\n').filter((l) => l.includes('acme/web#1')).length).toBeLessThanOrEqual(6);
    }
    // Only the PR whose own links exceed the limits hears about them, in a few lines.
    const own = w.stickyComments('web', 1)[0]!.body!;
    expect(own).toContain('(the limit)');
    expect(own.length).toBeLessThan(20_000);
    expect(w.tandemChecks('web', flood.head.sha)).toHaveLength(1);
  });
});
