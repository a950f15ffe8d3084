/**
 * A corrupt row in the App's database (issue 29 item 10) fails the one evaluation that meets it,
 * as infrastructure trouble naming the table, column and row, and the App lives on: the next PR
 * is evaluated as usual. The App over HTTP against the GitHub stand-in, the real engine (Docker);
 * the row is damaged with a SQL statement on the App's own database file.
 */
import { describe, expect, it } from 'vitest';
import { useScenario } from '../helpers/app-scenario.ts';
import { damageEvaluationMembers } from '../support/store-probe.ts';
import { SCHEMA_OK } from './app-harness.ts';

const scenario = useScenario();

describe('App: a corrupt database row', () => {
  it('fails the evaluation that reads it as infrastructure trouble, and evaluates the next PR', async () => {
    const w = await scenario().pull('schema', SCHEMA_OK, 'Adds total.').start();
    const pr = w.standIn.pullRequest('acme', 'schema', 1);
    expect(w.tandemChecks('schema')[0]?.output?.title).not.toContain('infrastructure');

    await damageEvaluationMembers(w.app.service.store, 1, '{oops');
    w.standIn.updatePullRequest('acme', 'schema', pr.number, { body: 'Adds total, again.' });
    const edited = await w.sendPull('edited', 'schema', pr.number, {
      changes: { body: { from: 'Adds total.' } },
    });
    expect(edited.status).toBe(200);
    await w.settle();
    const [check] = w.tandemChecks('schema');
    expect(check?.conclusion).toBe('failure');
    expect(check?.output?.title).toBe('Tandem: infrastructure error, not a verdict on the code');
    const comment = w.stickyComments('schema', pr.number)[0]?.body ?? '';
    expect(comment).toContain('**Infrastructure error** — not a verdict on the code');
    expect(comment).toContain(
      "the App's database holds a corrupt row: table evaluations, column members, row 1: not valid JSON",
    );

    // Still serving: a PR on another repository gets its verdict (web alone does not resolve).
    const web = await w.openPull('web', { 'index.js': 'module.exports = { page: 1 };\n// hi\n' }, 'Tidy.');
    await w.sendPull('opened', 'web', web.number);
    await w.settle();
    const [webCheck] = w.tandemChecks('web', web.head.sha);
    expect(webCheck?.status).toBe('completed');
    expect(webCheck?.output?.title).not.toContain('infrastructure');
  });
});
