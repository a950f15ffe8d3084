/**
 * The sticky comment is rendered from the App's stored state, never by reading the posted
 * Markdown back and patching it (issue 29 item 9): a comment a person edited into garbage is
 * rewritten whole, correct, on the next update — here the final state of a closed member.
 */
import { describe, expect, it } from 'vitest';
import { API_OK, openPull, SCHEMA_OK, sendPull, settle, stickyComments, useWorld } from './app-harness.ts';

const startWorld = useWorld();

describe('App: the sticky comment from stored state', () => {
  it('re-renders a comment edited to garbage from state when the PR is closed', async () => {
    const w = await startWorld();
    await openPull(w, 'schema', SCHEMA_OK, '');
    await openPull(w, 'api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    await sendPull(w, 'opened', 'schema', 1);
    await sendPull(w, 'opened', 'api', 1);
    await settle(w);
    const [published] = stickyComments(w, 'api', 1);
    expect(published!.body).toMatch(/^✅ \*\*Resolved\*\*/m);
    const report = published!.body!.slice(published!.body!.indexOf('✅ **Resolved**'));

    // Someone edits the App's comment (the marker stays, so it is still the one to update).
    const record = w.standIn.state.commentList.find((c) => c.id === published!.id)!;
    record.body =
      '<!-- tandem:linked-change -->\n⏳ garbage\n\n---\n\n<sub>Tandem · updated for nothing · comment `/tandem run` to evaluate again</sub>';

    w.standIn.updatePullRequest('acme', 'api', 1, { state: 'closed' });
    await sendPull(w, 'closed', 'api', 1);
    await settle(w);

    const [final] = stickyComments(w, 'api', 1);
    const body = final!.body!;
    expect(body).not.toContain('garbage');
    expect(body).not.toContain('updated for nothing');
    expect(body).toMatch(
      /^⏹️ \*\*Closed\*\* without merging; Tandem no longer evaluates this pull request\./m,
    );
    // The result it had, rendered again from state, without the re-run offer.
    expect(body).toContain(report.replace(' · comment `/tandem run` to evaluate again', ''));
    expect(body).not.toContain('/tandem run');
  }, 240_000);
});
