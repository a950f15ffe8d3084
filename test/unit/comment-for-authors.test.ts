/**
 * What an author (or a coding agent reading the comment) needs without unfolding anything: a PR
 * the change does not need is said on line 2; hidden test names are said to be hidden, and who
 * can see them; repositories without hidden tests are listed; the joint-necessity legend only
 * where there is a matrix to read it on; matrix rows in merge order.
 */
import { describe, expect, it } from 'vitest';
import { renderLinkedChangeComment } from '../../src/report/linked-change.ts';
import { renderMarkdown } from '../../src/report/markdown-report.ts';
import { linkedReport, linkedView } from '../helpers/comment-cases.ts';

const lines = (text: string) => text.split('\n');

describe('the comment, for authors and coding agents', () => {
  it('says on line 2 which PR the change does not need, by its PR', () => {
    const report = linkedReport(3, 'resolved', 'full', { needless: 'acme/web' });
    expect(report.verdict.unnecessary).toEqual(['acme/web']);
    const text = renderLinkedChangeComment(linkedView(3), report, 'names');
    expect(lines(text)[0]).toMatch(/^✅ \*\*Resolved\*\*/);
    expect(lines(text)[1]).toBe('➖ `acme/web#11` is not needed for this change: it resolves without it.');
    // The CLI's report names the repository (it has no PR).
    expect(renderMarkdown(report, { reveal: 'names' })).toContain(
      '➖ `acme/web` is not needed for this change',
    );
    // A change that needs every PR says nothing of the kind.
    expect(renderLinkedChangeComment(linkedView(3), linkedReport(3, 'resolved'), 'names')).not.toContain(
      'not needed',
    );
  });

  it('says when test names are hidden by reveal, and who can see them, without naming the private evaluator', () => {
    const report = linkedReport(2, 'unresolved');
    const hidden = renderLinkedChangeComment(linkedView(2), report, 'counts');
    expect(hidden).toContain('🔒 Test names are hidden (`reveal: counts`)');
    expect(hidden).toContain("people who can read the organization's evaluator repository see them");
    expect(hidden).not.toContain('accepts the new field');
    const shown = renderLinkedChangeComment(linkedView(2), report, 'names');
    expect(shown).not.toContain('Test names are hidden');
    // Nothing fails: nothing is hidden worth saying.
    expect(renderLinkedChangeComment(linkedView(2), linkedReport(2, 'resolved'), 'counts')).not.toContain(
      'Test names are hidden',
    );
  });

  it('lists the repositories the suite has no hidden test for', () => {
    const report = linkedReport(3, 'resolved', 'full', { untested: 'acme/cli' });
    const text = renderLinkedChangeComment(linkedView(3), report, 'names');
    expect(text).toContain(
      "No hidden tests in `acme/cli`: its change is judged only through the other repositories' tests.",
    );
    expect(renderLinkedChangeComment(linkedView(3), linkedReport(3, 'resolved'), 'names')).not.toContain(
      'No hidden tests',
    );
  });

  it('drops the joint-necessity legend where there is no partial configuration', () => {
    const legend = 'A jointly necessary change fails in every configuration but `full`';
    expect(renderLinkedChangeComment(linkedView(1), linkedReport(1, 'resolved'), 'names')).not.toContain(
      legend,
    );
    expect(renderLinkedChangeComment(linkedView(2), linkedReport(2, 'resolved'), 'names')).toContain(legend);
  });

  it('lists matrix rows in merge order: base, producers first, full last', () => {
    const view = { ...linkedView(3), mergeOrder: ['acme/cli', 'acme/api', 'acme/web'] };
    const text = renderLinkedChangeComment(view, linkedReport(3, 'resolved'), 'names');
    const rows = lines(text)
      .filter((l) => /^\| `[a-z+]+` \|/.test(l))
      .map((l) => /^\| `([a-z+]+)` \|/.exec(l)![1]);
    // Ids keep the plan's (target) order; the rows follow the merge order.
    expect(rows).toEqual(['base', 'cli', 'api', 'web', 'api+cli', 'web+cli', 'api+web', 'full']);
  });
});
