import { describe, expect, it } from 'vitest';
import { INFRA_TITLE } from '../../src/github/check-runs.ts';
import { type Scenario, useScenario } from '../helpers/app-scenario.ts';
import { commitOn } from '../helpers/git-fixtures.ts';
import { evaluationStates as storedStates } from '../support/store-probe.ts';
import { API_OK, orgConfig, SCHEMA_OK } from './app-harness.ts';

const scenario = useScenario();

const WEB_OK = { 'index.js': 'module.exports = { page: 1, total: true };\n' };
const LEAVE_ONE_OUT = orgConfig().replace('matrix: full', 'matrix: leave-one-out');

/** A world whose App dispatches to an observed real engine. */
async function observedWorld(config?: string, opts: { holdFirst?: boolean } = {}) {
  const world = await scenario()
    .observe(opts)
    .with(config ? { config } : {})
    .start();
  return { world, executor: world.observed };
}

const conclusions = (world: Scenario, repo: string, sha?: string) =>
  world.tandemChecks(repo, sha).map((c) => c.conclusion);
const targetsOf = (run: { spec: { targets: Array<{ repo: string }> } }) =>
  run.spec.targets.map((t) => t.repo).sort();
const evaluationStates = (world: Scenario) => storedStates(world.app.service.store);

/** Pushes a new commit to a member's head branch and tells the App (synchronize). */
async function push(world: Scenario, repo: 'schema' | 'api' | 'web', files: Record<string, string>) {
  const sha = await commitOn(world.repos[repo]!, 'feature', files, `more ${repo}`);
  world.standIn.updatePullRequest('acme', repo, 1, { headSha: sha });
  return sha;
}

describe('App: a linked change over its life', () => {
  it('closing a member: it leaves the set and the others are evaluated again', async () => {
    const o = await observedWorld(LEAVE_ONE_OUT);
    const w = o.world;
    const schema = await w.openPull('schema', SCHEMA_OK, '');
    const api = await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await w.openPull('web', WEB_OK, 'Depends-On: acme/api#1');
    for (const r of ['schema', 'api', 'web']) await w.sendPull('opened', r, 1);
    await w.settle();
    expect(o.executor.runs.map(targetsOf)).toEqual([['acme/api', 'acme/schema', 'acme/web']]);

    w.standIn.updatePullRequest('acme', 'web', 1, { state: 'closed' });
    await w.sendPull('closed', 'web', 1);
    await w.settle();
    expect(o.executor.runs.map(targetsOf)).toEqual([
      ['acme/api', 'acme/schema', 'acme/web'],
      ['acme/api', 'acme/schema'],
    ]);
    // The closed PR's repository is context at its default branch, without the change.
    expect(o.executor.runs[1]!.spec.context).toEqual([
      expect.objectContaining({ repo: 'acme/web', ref: 'main' }),
    ]);
    // Issue 22: the unchanged heads keep one check each, completed again (was a second check).
    expect(conclusions(w, 'schema', schema.head.sha)).toEqual(['success']);
    expect(conclusions(w, 'api', api.head.sha)).toEqual(['success']);
    for (const r of ['schema', 'api']) {
      const body = w.stickyComments(r, 1)[0]!.body!;
      expect(body).toContain('~~acme/web#1~~ closed: left the set');
    }
    // The closed PR's own comment reaches a final state: no re-run offered for a PR nobody evaluates.
    const closed = w.stickyComments('web', 1);
    expect(closed).toHaveLength(1);
    expect(closed[0]!.body).toMatch(
      /^⏹️ \*\*Closed\*\* without merging; Tandem no longer evaluates this pull request\./m,
    );
    expect(closed[0]!.body).not.toContain('/tandem run');
  });

  it('merging a member: it leaves the set and its repository is taken at its new base', async () => {
    const o = await observedWorld();
    const w = o.world;
    // The schema PR goes into `release`; `main` never gets `total`.
    const release = await commitOn(w.repos.schema!, 'release', { 'RELEASE.md': 'r\n' }, 'release', {
      from: 'main',
    });
    w.publishBranch('schema', 'release', release);
    await w.openPull('schema', SCHEMA_OK, '', 'feature', 'release');
    const api = await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await w.sendPull('opened', 'schema', 1);
    await w.sendPull('opened', 'api', 1);
    await w.settle();
    expect(conclusions(w, 'api', api.head.sha)).toEqual(['success']);
    expect(o.executor.runs[0]!.spec.targets.find((t) => t.repo === 'acme/schema')!.base).toBe(release);

    const merged = await commitOn(w.repos.schema!, 'release', SCHEMA_OK, 'Merge pull request #1');
    w.publishBranch('schema', 'release', merged);
    w.standIn.updatePullRequest('acme', 'schema', 1, { merged: true });
    await w.sendPull('closed', 'schema', 1);
    await w.settle();

    expect(o.executor.runs).toHaveLength(2);
    expect(targetsOf(o.executor.runs[1]!)).toEqual(['acme/api']);
    expect(o.executor.runs[1]!.spec.context).toContainEqual(
      expect.objectContaining({ repo: 'acme/schema', ref: merged }),
    );
    // Alone, api passes only because schema is taken with the merge (main lacks `total`).
    // Issue 22: one check on the unchanged api head, completed again (was a second check).
    expect(conclusions(w, 'api', api.head.sha)).toEqual(['success']);
    const body = w.stickyComments('api', 1)[0]!.body!;
    expect(body).toContain(
      '~~acme/schema#1~~ merged into `release`: its repository is taken at its new base',
    );
    expect(body).not.toContain('- acme/schema#1 at');
    // The merged PR's comment is final without anyone asking (`/tandem run` would have nothing to do).
    const final = w.stickyComments('schema', 1);
    expect(final).toHaveLength(1);
    expect(final[0]!.body).toMatch(
      /^✅ \*\*Merged\*\* into `release`; Tandem no longer evaluates this pull request\./m,
    );
    expect(final[0]!.body).toContain('✅ **Resolved**');
    expect(final[0]!.body).not.toContain('/tandem run');
  });

  it('reports a merge conflict on every member: which PR, that updating it re-evaluates, no re-run', async () => {
    const w = await scenario().start();
    const schema = await w.openPull('schema', SCHEMA_OK, '');
    const api = await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    // `main` moves on under the api PR and touches the same line.
    const tip = await commitOn(w.repos.api!, 'main', { 'index.js': 'module.exports = { v: 2 };\n' }, 'v2', {
      from: 'main',
    });
    w.publishBranch('api', 'main', tip);
    await w.sendPull('opened', 'schema', 1);
    await w.sendPull('opened', 'api', 1);
    await w.settle();
    const conflict =
      '**Merge conflict:** acme/api#1 does not merge onto the tip of `main`. Merge `main` into it or rebase it; the push re-evaluates the linked change.';
    for (const [repo, sha] of [
      ['schema', schema.head.sha],
      ['api', api.head.sha],
    ] as const) {
      const [check] = w.tandemChecks(repo, sha);
      expect(check!.conclusion).toBe('failure');
      expect(check!.output.title).toBe(INFRA_TITLE);
      expect(check!.output.summary).toContain(conflict);
      const last = check!.history.at(-1) as { actions?: Array<{ identifier: string }> };
      expect(last.actions ?? []).toEqual([]);
      const comment = w.stickyComments(repo, 1)[0]!.body!;
      expect(comment).toMatch(
        /^⚠️ \*\*Merge conflict\*\* — the pull request in `acme\/api` does not merge onto its base; updating it will re-evaluate the change/m,
      );
      expect(comment).toContain(conflict);
      expect(comment).not.toContain('/tandem run');
      // Both PRs in the footer at their own heads.
      expect(comment).toContain(`api [\`${api.head.sha.slice(0, 7)}\`]`);
      expect(comment).toContain(`schema [\`${schema.head.sha.slice(0, 7)}\`]`);
    }
  });

  it('a push marks the comment as being replaced at once, naming the new and the old heads', async () => {
    const o = await observedWorld();
    const w = o.world;
    const schema = await w.openPull('schema', SCHEMA_OK, '');
    await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await w.sendPull('opened', 'schema', 1);
    await w.sendPull('opened', 'api', 1);
    await w.settle();
    const first = w.stickyComments('api', 1)[0]!.body!;
    expect(first).toMatch(/^✅ \*\*Resolved\*\*/m);
    const pushed = await push(w, 'schema', {
      'index.js': "module.exports = { fields: ['id', 'total', 'x'] };\n",
    });
    o.executor.holdRestAfterFull();
    await w.sendPull('synchronize', 'schema', 1);
    // The debounce window (5 s by default) ends; the mark comes before any configuration runs.
    w.app.service.flush();
    const stale = () => w.stickyComments('api', 1)[0]?.body ?? '';
    await w.until(() => stale().includes('Re-evaluating'), 'the comment marked stale');
    const line = stale()
      .split('\n')
      .find((l) => l.startsWith('⏳'))!;
    expect(line).toMatch(/^⏳ \*\*Re-evaluating\*\* for /);
    expect(line.split('; below:')[0]).toContain(`acme/schema#1 [\`${pushed.slice(0, 7)}\`]`);
    expect(line).toContain(`below: the result for schema [\`${schema.head.sha.slice(0, 7)}\`]`);
    expect(stale()).toContain('✅ **Resolved**');
    // The verdict is on the check while the rest of the matrix is still to go.
    const titlesOn = (sha: string) =>
      ((w.tandemChecks('schema', sha)[0]?.history ?? []) as Array<{ output?: { title?: string } }>).flatMap(
        (h) => (h.output?.title ? [h.output.title] : []),
      );
    const pending = /^Tandem: resolved — joint necessity pending, 3 configurations to go$/;
    await w.until(() => titlesOn(pushed).some((t) => pending.test(t)), 'the early verdict on the check');
    o.executor.releaseRest();
    await w.settle();
    const done = w.stickyComments('api', 1)[0]!.body!;
    expect(done).not.toContain('Re-evaluating');
    // While it ran, the check said how far it was, and the verdict before the matrix was complete.
    const [check] = w.tandemChecks('schema', pushed);
    expect(titlesOn(pushed)).toContain('Tandem: evaluating — 0/4 configurations');
    expect(check!.conclusion).toBe('success');
    expect(check!.output.title).toMatch(/^Tandem: resolved — 4\/4 configurations as expected/);
    expect(done).toContain(`schema [\`${pushed.slice(0, 7)}\`]`);
  });

  it('groups open PRs with the same head branch name when group_by_branch is on', async () => {
    const o = await observedWorld(orgConfig('group_by_branch: true'));
    const w = o.world;
    const schema = await w.openPull('schema', SCHEMA_OK, 'No links.', 'checkout-total');
    const api = await w.openPull('api', { 'index.js': API_OK }, 'No links either.', 'checkout-total');
    await w.sendPull('opened', 'schema', 1);
    await w.sendPull('opened', 'api', 1);
    await w.settle();
    expect(o.executor.runs.map(targetsOf)).toEqual([['acme/api', 'acme/schema']]);
    expect(conclusions(w, 'schema', schema.head.sha)).toEqual(['success']);
    expect(conclusions(w, 'api', api.head.sha)).toEqual(['success']);
    expect(w.stickyComments('schema', 1)[0]!.body).toBe(w.stickyComments('api', 1)[0]!.body);
  });

  it('waits out rate-limited responses instead of turning them into verdicts', async () => {
    const w = await scenario().start();
    const schema = await w.openPull('schema', SCHEMA_OK, '');
    const api = await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    w.standIn.rateLimitNext(1, 'primary');
    await w.sendPull('opened', 'schema', 1);
    w.standIn.rateLimitNext(2, 'secondary');
    await w.sendPull('opened', 'api', 1);
    await w.settle();
    const statuses = w.standIn.requests.map((r) => r.status);
    expect(statuses).toContain(403);
    expect(statuses).toContain(429);
    expect(conclusions(w, 'schema', schema.head.sha)).toEqual(['success']);
    expect(conclusions(w, 'api', api.head.sha)).toEqual(['success']);
    expect(w.stickyComments('api', 1)[0]!.body).not.toContain('infrastructure error');
  });

  it('refuses members over the cap with a message, and closes their queued check', async () => {
    const o = await observedWorld(orgConfig('limits: { members: 2 }'));
    const w = o.world;
    const schema = await w.openPull('schema', SCHEMA_OK, '');
    await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    const web = await w.openPull('web', WEB_OK, 'Depends-On: acme/schema#1');
    for (const r of ['schema', 'api', 'web']) await w.sendPull('opened', r, 1);
    await w.settle();
    // The set is walked from its stable name (the smallest key, acme/api#1): web is the third.
    expect(o.executor.runs.map(targetsOf)).toEqual([['acme/api', 'acme/schema']]);
    expect(conclusions(w, 'schema', schema.head.sha)).toEqual(['success']);
    const refusal = 'acme/schema#1 → acme/web#1: the linked change already has 2 members (the limit)';
    expect(w.stickyComments('schema', 1)[0]!.body).toContain(refusal);
    expect(w.stickyComments('api', 1)[0]!.body).toContain(refusal);
    const [webCheck] = w.tandemChecks('web', web.head.sha);
    expect(webCheck!.status).toBe('completed');
    expect(webCheck!.conclusion).toBe('failure');
    expect(webCheck!.output.title).toBe('Tandem: not evaluated (linked change over its limits)');
    expect(w.stickyComments('web', 1)[0]!.body).toContain('already has 2 members (the limit)');
  });

  it('`/tandem matrix full` from a writer evaluates every configuration', async () => {
    const o = await observedWorld(LEAVE_ONE_OUT);
    const w = o.world;
    await w.openPull('schema', SCHEMA_OK, '');
    await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await w.sendPull('opened', 'schema', 1);
    await w.sendPull('opened', 'api', 1);
    await w.settle();
    w.standIn.setPermission('acme', 'schema', 'writer', 'write');
    const comment = await w.postComment('schema', '/tandem matrix full', 'writer');
    expect(w.standIn.reactions(Number(comment.id)).map((r) => r.content)).toEqual(['+1']);
    expect(o.executor.runs.map((r) => r.spec.matrix)).toEqual(['leave-one-out', 'full']);
    expect(o.executor.runs.map((r) => r.report?.verdict.jointlyNecessaryBasis)).toEqual([
      'leave-one-out',
      'full',
    ]);
  });

  it('evaluates three pushes to three members within the debounce window once', async () => {
    const o = await observedWorld(LEAVE_ONE_OUT);
    const w = o.world;
    await w.openPull('schema', SCHEMA_OK, '');
    await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await w.openPull('web', WEB_OK, 'Depends-On: acme/api#1');
    for (const r of ['schema', 'api', 'web']) await w.sendPull('opened', r, 1);
    await w.settle();
    expect(o.executor.runs).toHaveLength(1);

    const heads = {
      schema: await push(w, 'schema', { 'NOTES.md': 's\n' }),
      api: await push(w, 'api', { 'NOTES.md': 'a\n' }),
      web: await push(w, 'web', { 'NOTES.md': 'w\n' }),
    };
    for (const r of ['schema', 'api', 'web']) await w.sendPull('synchronize', r, 1);
    await w.settle();
    expect(o.executor.runs).toHaveLength(2);
    expect(o.executor.runs[1]!.spec.targets.map((t) => t.head).sort()).toEqual(Object.values(heads).sort());
    for (const [repo, sha] of Object.entries(heads)) {
      const checks = w.tandemChecks(repo, sha);
      expect(checks.map((c) => c.conclusion)).toEqual(['success']);
      // Progress updates change the text only: these are the status changes.
      const statuses = (checks[0]!.history as Array<{ status?: string }>)
        .map((h) => h.status)
        .filter(Boolean);
      expect(statuses).toEqual(['queued', 'in_progress', 'completed']);
    }
    expect((await evaluationStates(w)).filter((s) => s === 'published')).toHaveLength(2);
  });

  it('cancels an evaluation made stale by a newer push', async () => {
    const o = await observedWorld(undefined, { holdFirst: true });
    const w = o.world;
    const schema = await w.openPull('schema', SCHEMA_OK, '');
    const api = await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await w.sendPull('opened', 'schema', 1);
    await w.sendPull('opened', 'api', 1);
    const executor = o.executor;
    w.app.service.flush();
    await executor.started(1);

    const newer = await push(w, 'api', { 'NOTES.md': 'newer\n' });
    await w.sendPull('synchronize', 'api', 1);
    await w.settle();
    expect(o.executor.runs.map((r) => r.aborted)).toEqual([true, false]);
    expect(o.executor.runs[1]!.spec.targets.find((t) => t.repo === 'acme/api')!.head).toBe(newer);
    // The first request was folded into the set's (cancelled), then the held run was aborted.
    expect((await evaluationStates(w)).slice(-2)).toEqual(['superseded', 'published']);
    const [stale] = w.tandemChecks('api', api.head.sha);
    expect(stale!.conclusion).toBe('cancelled');
    expect(stale!.output.title).toBe('Tandem: superseded');
    expect(conclusions(w, 'api', newer)).toEqual(['success']);
    // The unchanged member keeps one check run, completed by the newer evaluation.
    expect(conclusions(w, 'schema', schema.head.sha)).toEqual(['success']);
  });
});
