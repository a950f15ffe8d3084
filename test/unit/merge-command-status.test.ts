/**
 * The `/tandem merge` comment: merged, refused with every reason, half-merged (loud, naming the
 * refused PR, what merged and what was not attempted), and nothing a repository or GitHub wrote
 * (reasons, the requester's name) able to inject Markdown, HTML or mentions.
 */
import { describe, expect, it } from 'vitest';
import { renderMergeStatus } from '../../src/report/merge-command-status.ts';

const A = 'a'.repeat(40);
const M = 'm'.repeat(40);

describe('renderMergeStatus', () => {
  it('a half-merged set comes first: the refused PR and why, merged and not attempted members', () => {
    const text = renderMergeStatus({
      outcome: 'partial',
      requestedBy: 'alice',
      steps: [
        { key: 'acme/schema#1', headSha: A, result: 'merged', mergeSha: M },
        {
          key: 'acme/api#1',
          headSha: A,
          result: 'refused',
          reason: 'required check "ci" is failing (failure)',
        },
        { key: 'acme/web#2', headSha: A, result: 'not-attempted' },
      ],
    });
    expect(text.split('\n')[0]).toBe(
      '🚨 **Half-merged** — acme/api#1 was refused: required check "ci" is failing (failure).',
    );
    expect(text).toContain('**1 of 3** pull requests of this linked change are merged and 2 are not');
    expect(text).toContain('| `acme/schema#1` | `aaaaaaa` | ✅ merged as `mmmmmmm` |');
    expect(text).toContain('| `acme/web#2` | `aaaaaaa` | ⏸ not attempted |');
  });

  it('lists every reason when nothing was attempted', () => {
    const text = renderMergeStatus({
      outcome: 'refused',
      requestedBy: 'alice',
      reasons: [
        'the linked change is not resolved',
        'acme/web#2 joined the linked change after its evaluation',
      ],
      steps: [{ key: 'acme/api#1', headSha: A, result: 'not-attempted' }],
    });
    expect(text).toMatch(
      /^⛔ \*\*Not merged\*\* — the linked change is not resolved\. Nothing was merged\.$/m,
    );
    expect(text).toContain('- acme/web#2 joined the linked change after its evaluation');
  });

  it('escapes what GitHub or a repository wrote', () => {
    const text = renderMergeStatus({
      outcome: 'refused',
      requestedBy: '@org/team',
      steps: [
        {
          key: 'acme/api#1',
          headSha: A,
          result: 'refused',
          reason:
            'GitHub refused the merge: Required status check "<img src=x> | [x](javascript:1) @admins" is failing.',
        },
      ],
    });
    expect(text).not.toMatch(/(?<!\\)<img/);
    expect(text).toContain('\\<img');
    expect(text).not.toContain('[x](');
    expect(text).not.toMatch(/@admins|@org/);
    // A pipe in a reason stays inside its table cell.
    const row = text.split('\n').find((l) => l.startsWith('| `acme/api#1`'))!;
    expect(row.split(/(?<!\\)\|/).length).toBe(5);
  });
});
