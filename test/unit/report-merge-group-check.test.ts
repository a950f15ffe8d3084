/**
 * The words on a merge group's `Tandem` check: the group first; the verdict with the queue's
 * repository at the queued commit and no `/tandem run` (it re-runs PR checks only); errors
 * verbatim in a fence with advice that fits a queue (there is no Re-run on a merge group).
 */
import { describe, expect, it } from 'vitest';
import { INFRA_TITLE } from '../../src/core/infra-wording.ts';
import {
  type MergeGroupLabel,
  renderMergeGroupCancelled,
  renderMergeGroupError,
  renderMergeGroupReport,
  renderMergeGroupSkipped,
} from '../../src/report/merge-group-check.ts';
import { linkedReport, linkedView } from '../helpers/comment-cases.ts';

const QUEUED = '9'.repeat(40);
const group: MergeGroupLabel = { repo: 'acme/api', headSha: QUEUED, baseBranch: 'main', pullNumber: 10 };
const FIRST_LINE = '**Merge group** `9999999` for acme/api#10 into `main` of acme/api.';

describe('merge group check text', () => {
  it('gives the verdict with acme/api at the queued commit', () => {
    const view = linkedView(2);
    const ok = renderMergeGroupReport(group, view, linkedReport(2, 'resolved'), 'names');
    expect(ok.title).toMatch(/^Tandem: resolved/);
    expect(ok.summary.startsWith(FIRST_LINE)).toBe(true);
    expect(ok.summary).toContain(`acme/api#10 [\`9999999\`](<https://github.com/acme/api/commit/${QUEUED}>)`);
    expect(ok.summary).not.toContain(`acme/api#10 [\`${view.members[0]!.headSha.slice(0, 7)}\``);
    expect(ok.summary).not.toContain('/tandem run');
    const bad = renderMergeGroupReport(group, view, linkedReport(2, 'unresolved'), 'names');
    expect(bad.title).toMatch(/^Tandem: not resolved — /);
    expect(bad.summary).toContain('Not resolved');
  });

  it('says why there is nothing to gate, or why the group was cancelled', () => {
    const skipped = renderMergeGroupSkipped(group, 'no suite', 'No suite covers acme/api.');
    expect(skipped).toEqual({
      title: 'Tandem: nothing to gate — no suite',
      summary: `${FIRST_LINE}\n\nNo suite covers acme/api.`,
    });
    expect(renderMergeGroupCancelled({ ...group, pullNumber: undefined }, 'Dequeued.').summary).toBe(
      '**Merge group** `9999999` into `main` of acme/api.\n\nDequeued.',
    );
  });

  it('keeps an error message verbatim in a fence, with advice for a queue', () => {
    const message = 'clone failed: ```\nfatal: repository not found';
    const infra = renderMergeGroupError(group, linkedView(2), message, 'infrastructure');
    expect(infra.title).toBe(INFRA_TITLE);
    expect(infra.summary).toContain('````\nclone failed: ```\nfatal: repository not found\n````');
    expect(infra.summary).toContain('Remove the pull request from the merge queue and add it again');
    expect(infra.summary).toContain('**Linked change**');
    const suite = renderMergeGroupError(group, undefined, 'tests[0].run: required', 'suite');
    expect(suite.title).toBe('Tandem: invalid suite — not a verdict on the code');
    expect(suite.summary).not.toContain('**Linked change**');
  });
});
