/**
 * A corrupt row in the App's database (issue 29 item 10) fails the one evaluation that meets it,
 * as infrastructure trouble naming the table, column and row, and the App lives on: the next PR
 * is evaluated as usual. The App over HTTP against the GitHub stand-in, the real engine (Docker);
 * the row is damaged with a SQL statement on the App's own database file.
 */
import { describe, expect, it } from 'vitest';
import {
  openPull,
  SCHEMA_OK,
  sendPull,
  settle,
  stickyComments,
  tandemChecks,
  useWorld,
} from './app-harness.ts';

const startWorld = useWorld();

describe('App: a corrupt database row', () => {
  it('fails the evaluation that reads it as infrastructure trouble, and evaluates the next PR', async () => {
    const w = await startWorld();
    const pr = await openPull(w, 'schema', SCHEMA_OK, 'Adds total.');
    await sendPull(w, 'opened', 'schema', pr.number);
    await settle(w);
    expect(tandemChecks(w, 'schema')[0]?.output?.title).not.toContain('infrastructure');

    w.app.service.store.db.exec(`UPDATE evaluations SET members = '{oops' WHERE id = 1`);
    w.standIn.updatePullRequest('acme', 'schema', pr.number, { body: 'Adds total, again.' });
    const edited = await sendPull(w, 'edited', 'schema', pr.number, {
      changes: { body: { from: 'Adds total.' } },
    });
    expect(edited.status).toBe(200);
    await settle(w);
    const [check] = tandemChecks(w, 'schema');
    expect(check?.conclusion).toBe('failure');
    expect(check?.output?.title).toBe('Tandem: infrastructure error, not a verdict on the code');
    const comment = stickyComments(w, 'schema', pr.number)[0]?.body ?? '';
    expect(comment).toContain('**Infrastructure error** — not a verdict on the code');
    expect(comment).toContain(
      "the App's database holds a corrupt row: table evaluations, column members, row 1: not valid JSON",
    );

    // Still serving: a PR on another repository gets its verdict (web alone does not resolve).
    const web = await openPull(w, 'web', { 'index.js': 'module.exports = { page: 1 };\n// hi\n' }, 'Tidy.');
    await sendPull(w, 'opened', 'web', web.number);
    await settle(w);
    const [webCheck] = tandemChecks(w, 'web', web.head.sha);
    expect(webCheck?.status).toBe('completed');
    expect(webCheck?.output?.title).not.toContain('infrastructure');
  });
});
