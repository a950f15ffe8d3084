/**
 * The App end to end with the real engine (Docker sandbox): linked PRs across repositories get one
 * verdict, the same check and the same comment on every member.
 *
 * Both stores (`describe.each(APP_BACKENDS)`): the first test on PostgreSQL too (evaluation rows,
 * links, pulls, check runs, comment state); the others' store paths are the same, run once.
 */
import { describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/core/report.schema.ts';
import { checksOnHeads } from '../helpers/app-pulls.ts';
import { useScenario } from '../helpers/app-scenario.ts';
import {
  API_BUG,
  API_OK,
  APP_BACKENDS,
  HIDDEN_TEST,
  orgConfig,
  SCHEMA_OK,
  sqliteOnly,
} from './app-harness.ts';

describe.each(APP_BACKENDS)('App: linked change with the real engine (%s)', (backend) => {
  const scenario = useScenario({ backend });
  const itOnce = sqliteOnly(backend);
  it('resolves a 2-PR linked change and reports it on both members', async () => {
    const w = await scenario().start();
    const schema = await w.openPull('schema', SCHEMA_OK, 'Adds total.');
    const api = await w.openPull('api', { 'index.js': API_OK }, 'Uses total.\n\nDepends-On: acme/schema#1');
    expect(schema.number).toBe(1);
    const r1 = await w.sendPull('opened', 'schema', schema.number);
    const r2 = await w.sendPull('opened', 'api', api.number);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    await w.settle();

    for (const { repo, pr, checks } of checksOnHeads(w, { schema, api })) {
      expect(checks).toHaveLength(1);
      const c = checks[0]!;
      expect(c.status).toBe('completed');
      expect(c.conclusion).toBe('success');
      const statuses = (c.history as Array<{ status?: string }>).map((h) => h.status).filter(Boolean);
      expect(statuses).toEqual(['queued', 'in_progress', 'completed']);
      expect(c.output.summary).toContain('acme/schema#1');
      expect(c.output.summary).toContain('acme/api#1');
      const comments = w.stickyComments(repo, pr.number);
      expect(comments).toHaveLength(1);
      expect(comments[0]!.body).toMatch(/^✅ \*\*Resolved\*\* — /m);
      // Linked PRs with their heads, in merge order, on one line; the footer offers a re-run.
      expect(comments[0]!.body).toMatch(
        /^\*\*Linked, in merge order:\*\* acme\/schema#1 \[`[0-9a-f]{7}`\]\(<https:\/\/[^>]+\/commit\/[0-9a-f]{40}>\) → acme\/api#1 \[`[0-9a-f]{7}`\]\(<https:\/\/[^>]+\/commit\/[0-9a-f]{40}>\)$/m,
      );
      expect(comments[0]!.body).toContain('comment `/tandem run` to evaluate again');
      expect(comments[0]!.body).toMatch(
        /\[check run\]\(<https?:\/\/[^>\s]+\/acme\/(schema|api)\/runs\/\d+>\)/,
      );
      expect(comments[0]!.user?.login).toBe(w.standIn.botLogin);
    }
    // The same consolidated content on every member.
    expect(w.stickyComments('schema', 1)[0]!.body).toBe(w.stickyComments('api', 1)[0]!.body);
    // Hidden contents and paths never leave the evaluator.
    const published = [
      ...w.stickyComments('schema', 1).map((c) => c.body ?? ''),
      ...w.tandemChecks('api').map((c) => JSON.stringify(c.output)),
    ].join('\n');
    expect(published).not.toContain('checkout.test.js');
    expect(published).not.toContain('hidden/');
    expect(published).not.toContain(HIDDEN_TEST.trim().split('\n')[0]!);
  });

  itOnce(
    'fails a 2-PR linked change whose consumer is wrong, then passes after a push re-evaluates all',
    async () => {
      const w = await scenario().start();
      const schema = await w.openPull('schema', SCHEMA_OK, 'Depends-On: acme/api#1');
      const api = await w.openPull('api', { 'index.js': API_BUG }, 'Uses total.');
      await w.sendPull('opened', 'schema', schema.number);
      await w.sendPull('opened', 'api', api.number);
      await w.settle();
      expect(w.tandemChecks('schema', schema.head.sha)[0]!.conclusion).toBe('failure');
      expect(w.tandemChecks('api', api.head.sha)[0]!.conclusion).toBe('failure');
      const failing = w.stickyComments('api', 1)[0]!;
      expect(failing.body).toMatch(/^❌ \*\*Not resolved\*\* — /m);
      expect(failing.body).toContain('api computes total'); // reveal: names

      // A push to one member: every member is evaluated again, the comment edited in place.
      const fixed = await (await import('../helpers/git-fixtures.ts')).commitOn(w.repos.api!, 'feature', {
        'index.js': API_OK,
      });
      w.standIn.updatePullRequest('acme', 'api', 1, { headSha: fixed });
      await w.sendPull('synchronize', 'api', 1);
      await w.settle();
      expect(w.tandemChecks('api', fixed)[0]!.conclusion).toBe('success');
      const schemaChecks = w.tandemChecks('schema', schema.head.sha);
      // Issue 22: the unchanged schema head keeps its one check, moved back and completed again.
      expect(schemaChecks).toHaveLength(1);
      expect(
        schemaChecks[0]!.history.map((h) => (h as { conclusion?: string }).conclusion).filter(Boolean),
      ).toEqual(['failure', 'success']);
      const after = w.stickyComments('api', 1);
      expect(after).toHaveLength(1);
      expect(after[0]!.id).toBe(failing.id);
      expect(after[0]!.body).toMatch(/^✅ \*\*Resolved\*\* — /m);
      expect(after[0]!.body).not.toContain('Not resolved');
    },
  );

  itOnce('links the JSON report within reveal, served by the App at an unguessable address', async () => {
    const w = await scenario()
      .with({
        config: orgConfig().replace('reveal: names', 'reveal: counts'),
        publicUrl: 'https://tandem.example.test/',
      })
      .start();
    await w.openPull('schema', SCHEMA_OK, 'Depends-On: acme/api#1');
    await w.openPull('api', { 'index.js': API_BUG }, 'Uses total.');
    await w.sendPull('opened', 'schema', 1);
    await w.sendPull('opened', 'api', 1);
    await w.settle();
    const body = w.stickyComments('api', 1)[0]!.body!;
    const link =
      /\[JSON report\]\(<(https:\/\/tandem\.example\.test\/tandem\/reports\/[\w-]{22}\.json)>\)/.exec(body);
    expect(link, body).not.toBeNull();
    // The public origin is the operator's; the path is what this App serves.
    const path = new URL(link![1]!).pathname;
    const res = await fetch(`${w.app.url}${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const report = reportSchema.parse(await res.json());
    expect(report.outcome).toBe('unresolved');
    // reveal: counts: statuses and counts, but no test name and no failure text.
    const text = JSON.stringify(report);
    expect(text).not.toContain('api computes total');
    expect(text).not.toContain('checkout.test.js');
    expect(report.tests.failToPass.every((id) => /^F2P-\d+$/.test(id))).toBe(true);
    const full = report.configurations.find((c) => c.role === 'full')!;
    expect(full.tests.some((t) => t.status !== 'passed')).toBe(true);
    expect(full.tests.every((t) => t.reason === undefined)).toBe(true);
    // Nothing else of the data folder is reachable through the route.
    for (const probe of [
      '/tandem/reports/..%2Ftandem.db',
      '/tandem/reports/../tandem.db',
      '/tandem/reports/AAAAAAAAAAAAAAAAAAAAAA.json',
    ])
      expect((await fetch(`${w.app.url}${probe}`)).status).toBe(404);
  });
});
