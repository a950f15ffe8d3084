/**
 * The facts of the App's sticky comment a first-time user relies on: the commits it quotes are
 * the PR heads and base tips (short, linked), never Tandem's own merge commit; a merge conflict
 * names the PR and what fixes it and offers no re-run; the matrix columns follow the merge order;
 * "Jointly necessary" only where it can be yes; a merged set, a comment being replaced and the
 * verdict before the matrix is complete say so.
 */
import { describe, expect, it } from 'vitest';
import type { CommentState } from '../../src/core/comment-state.schema.ts';
import { withMerged, withReEvaluating, withResult, withVerdictFirst } from '../../src/core/comment-state.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { RERUN_COMMAND, renderLinkedChangeComment } from '../../src/report/linked-change.ts';
import { renderStickyComment } from '../../src/report/sticky-comment-state.ts';
import {
  baseShaOf,
  headShaOf,
  linkedReport,
  linkedView,
  mergeSha,
  repoNames,
} from '../helpers/comment-cases.ts';

const short = (s: string) => s.slice(0, 7);
const link = (repo: string, sha: string) => `[\`${short(sha)}\`](<https://github.com/${repo}/commit/${sha}>)`;

/** acme/web's PR does not merge onto its base: no head state, its configurations have no result. */
function conflictReport(): Report {
  const report = linkedReport(3, 'resolved');
  const conflict = {
    kind: 'merge-conflict' as const,
    target: 'acme/web',
    message: 'head of acme/web does not merge onto base: CONFLICT (content): Merge conflict in src/a.ts',
  };
  const web = (applied: string[]) => applied.includes('acme/web');
  return {
    ...report,
    outcome: 'error',
    summary: `the full configuration could not be evaluated: ${conflict.message}`,
    verdict: { ...report.verdict, resolved: false, jointlyNecessary: null },
    resolved: false,
    targets: report.targets.map((t) =>
      t.repo === 'acme/web' ? { repo: t.repo, url: t.url, base: t.base, error: conflict } : t,
    ),
    configurations: report.configurations.map((c) =>
      web(c.applied) ? { ...c, outcome: 'error', error: { ...conflict, configuration: c.id } } : c,
    ),
    infraErrors: [conflict],
  };
}

describe('the commits the comment quotes', () => {
  it('are the PR heads and base tips, short and linked; never the merge commit or a 40-character ref', () => {
    const text = renderLinkedChangeComment(linkedView(3), linkedReport(3, 'resolved'), 'names');
    for (const repo of repoNames(3)) {
      expect(text).not.toContain(short(mergeSha(repo)));
      expect(text).not.toContain(`\`${headShaOf(repo)}\``);
      expect(text).not.toContain(`\`${baseShaOf(repo)}\``);
      // Targets table: base and head linked; footer: the head linked.
      expect(text).toMatch(
        new RegExp(
          `\\| \`${repo}\` \\| ${reEscape(link(repo, baseShaOf(repo)))} \\| ${reEscape(link(repo, headShaOf(repo)))} \\(merge\\) \\|`,
        ),
      );
    }
    const footer = text.trim().split('\n').at(-1)!;
    expect(footer).toContain(`api ${link('acme/api', headShaOf('acme/api'))}`);
  });
});

describe('a merge conflict', () => {
  it('names the PR that conflicts with its base and that updating it re-evaluates; offers no re-run', () => {
    const text = renderLinkedChangeComment(linkedView(3), conflictReport(), 'names');
    const [first] = text.split('\n');
    expect(first).toBe(
      '⚠️ **Merge conflict** — the pull request in `acme/web` does not merge onto its base; updating it will re-evaluate the change (not a verdict on the code)',
    );
    expect(text).toContain(
      '**Merge conflict:** acme/web#11 does not merge onto the tip of `main`. Merge `main` into it or rebase it; the push re-evaluates the linked change.',
    );
    expect(text).not.toContain(RERUN_COMMAND);
    // The conflicting PR is in the footer, at its own head.
    expect(text.trim().split('\n').at(-1)).toContain(`web ${link('acme/web', headShaOf('acme/web'))}`);
    expect(text).toContain('without a result (infrastructure error)');
  });
});

describe('the matrix and the details', () => {
  it('orders the matrix columns as the printed merge order', () => {
    const view = { ...linkedView(3), mergeOrder: ['acme/cli', 'acme/api', 'acme/web'] };
    const text = renderLinkedChangeComment(view, linkedReport(3, 'resolved'), 'names');
    expect(text).toContain('**Linked, in merge order:** acme/cli#12');
    expect(text).toContain('| Configuration | cli | api | web | Result | Tests | Time |');
    // The `api` configuration applies api only: a tick in the second column.
    expect(text).toContain('| `api` | · | ✓ | · |');
  });

  it('says "Jointly necessary" only of a resolved change', () => {
    const resolved = renderLinkedChangeComment(linkedView(2), linkedReport(2, 'resolved'), 'names');
    expect(resolved).toContain('- **Jointly necessary:** yes');
    const unresolved = renderLinkedChangeComment(linkedView(2), linkedReport(2, 'unresolved'), 'names');
    expect(unresolved).not.toContain('Jointly necessary:');
  });

  it('leaves out the failing-tests section under reveal counts, where it could name nothing', () => {
    const counts = renderLinkedChangeComment(linkedView(2), linkedReport(2, 'unresolved'), 'counts');
    expect(counts).not.toContain('Failing tests');
    expect(counts.split('\n')[0]).toContain('F2P test still fails');
    const names = renderLinkedChangeComment(linkedView(2), linkedReport(2, 'unresolved'), 'names');
    expect(names).toContain('<summary>Failing tests:');
  });
});

describe('a comment that is being replaced, and a merged set', () => {
  // The comment is rendered from stored state on every update, never patched from its text.
  const published: CommentState = withResult({
    kind: 'report',
    view: linkedView(2),
    report: linkedReport(2, 'resolved'),
    reveal: 'names',
  });
  const old = renderStickyComment(published);
  const render = (s: CommentState | undefined) => renderStickyComment(s!);

  it('is the report comment itself once a result is published', () => {
    expect(old).toBe(renderLinkedChangeComment(linkedView(2), linkedReport(2, 'resolved'), 'names'));
  });

  it('says it is re-evaluating for the new heads and that below is the result for the old ones', () => {
    const pushed = linkedView(2);
    pushed.members[1] = { ...pushed.members[1]!, headSha: 'f'.repeat(40) };
    const staleState = withReEvaluating(published, pushed);
    const stale = render(staleState);
    const first = stale.split('\n').find((l) => l.startsWith('⏳'))!;
    expect(first).toContain(
      `⏳ **Re-evaluating** for acme/api#10 ${link('acme/api', headShaOf('acme/api'))}, acme/web#11 ${link('acme/web', 'f'.repeat(40))}`,
    );
    expect(first).toContain(
      `below: the result for api ${link('acme/api', headShaOf('acme/api'))}, web ${link('acme/web', headShaOf('acme/web'))}`,
    );
    expect(stale).toContain(old);
    // A second push replaces the line rather than stacking another.
    const again = render(withReEvaluating(staleState, linkedView(2)));
    expect(again.match(/Re-evaluating/g)).toHaveLength(1);
    expect(again.endsWith(old)).toBe(true);
    // No comment yet: nothing to mark.
    expect(withReEvaluating(undefined, linkedView(2))).toBeUndefined();
  });

  it('says the verdict first once the full configuration is in, the old result still below', () => {
    const staleState = withReEvaluating(published, linkedView(2));
    const earlyState = withVerdictFirst(staleState, linkedView(2), { planned: 4, done: 2, full: 'fail' });
    const early = render(earlyState);
    const first = early.split('\n').find((l) => l.startsWith('❌'))!;
    expect(first).toMatch(
      /^❌ \*\*Not resolved\*\* for acme\/api#10 .* — the full configuration fails; the rest of the matrix follows \(2 configurations to go\)\. Below: the result for api /,
    );
    // It replaces the re-evaluating line, and the next evaluation's mark replaces it in turn.
    expect(early).not.toContain('Re-evaluating');
    expect(early.endsWith(old)).toBe(true);
    expect(render(withReEvaluating(earlyState, linkedView(2))).match(/Not resolved|Re-evaluating/g)).toEqual([
      'Re-evaluating',
    ]);
    // No comment yet: the verdict alone; no verdict yet: nothing to write.
    expect(
      render(withVerdictFirst(undefined, linkedView(2), { planned: 4, done: 1, full: 'pass' })),
    ).toContain(
      'joint necessity pending, 3 configurations to go. The full report follows when the matrix is complete.',
    );
    expect(withVerdictFirst(published, linkedView(2), { planned: 4, done: 1 })).toBeUndefined();
  });

  it('after /tandem merge: says merged first and offers nothing to re-run', () => {
    const mergedState = withMerged(withReEvaluating(published, linkedView(2)), 'octocat');
    const merged = render(mergedState);
    expect(merged.split('\n')[0]).toBe(
      '✅ **Merged** with `/tandem merge` by octocat; below: the evaluation it merged on.',
    );
    expect(merged).not.toContain(RERUN_COMMAND);
    expect(merged).not.toContain('Re-evaluating');
    expect(withMerged(mergedState, 'octocat')).toBe(mergedState);
  });
});

function reEscape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
