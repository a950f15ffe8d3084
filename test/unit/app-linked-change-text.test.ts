/**
 * The set as members see it: the default member cap from `tandem.yml`, and how members that left
 * (closed, merged into a branch) and refused links read in the comment.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_MEMBERS, expandLinkedSet, type LinkNode } from '../../src/core/linked-set.ts';
import { validateOrgConfig } from '../../src/core/org-config.schema.ts';
import type { PullRef } from '../../src/core/pull-ref.ts';
import type { PullInfo } from '../../src/core/pull-request.schema.ts';
import {
  renderHandoffProgress,
  renderInvalidConfig,
  renderNoReport,
  renderRefused,
  renderSetSection,
} from '../../src/report/linked-change.ts';

const pr = (repo: string, number: number): PullRef => ({ owner: 'acme', repo, number });

describe('member cap', () => {
  it('defaults to 8 members and refuses the ninth with a reason', () => {
    const r = validateOrgConfig({
      evaluator: 'acme/suites',
      suites: [{ name: 's', repos: ['acme/api'], path: 's.yml' }],
    });
    if (!r.ok) throw new Error(r.message);
    expect(r.config.limits.members).toBe(DEFAULT_MAX_MEMBERS);
    expect(DEFAULT_MAX_MEMBERS).toBe(8);
    // A chain api#1 → api#2 → … → api#10, all open, in one repository.
    const nodes = new Map<string, LinkNode>();
    for (let n = 1; n <= 10; n++)
      nodes.set(`acme/api#${n}`, {
        ref: pr('api', n),
        state: 'open',
        links: n < 10 ? [pr('api', n + 1)] : [],
      });
    const set = expandLinkedSet('acme/api#1', nodes, {
      org: 'acme',
      covers: () => true,
      maxMembers: r.config.limits.members,
      maxRepos: r.config.limits.repos,
    });
    expect(set.members).toHaveLength(8);
    expect(set.refused).toEqual([
      {
        from: 'acme/api#8',
        to: 'acme/api#9',
        reason: 'the linked change already has 8 members (the limit)',
        member: true,
      },
    ]);
  });
});

describe('renderSetSection', () => {
  const member: PullInfo = {
    ref: pr('api', 1),
    state: 'open',
    title: 't',
    body: null,
    headSha: 'abcdef1234567890',
    headRef: 'feature',
    baseSha: 'f'.repeat(40),
    baseRef: 'main',
    repo: 'acme/api',
    htmlUrl: 'https://github.com/acme/api/pull/1',
    cloneUrl: 'https://github.com/acme/api.git',
  };

  it('names members, who left and how, and links not followed', () => {
    const md = renderSetSection({
      members: [member],
      left: [
        { key: 'acme/schema#1', state: 'merged', baseRef: 'release' },
        { key: 'acme/web#1', state: 'closed' },
      ],
      refused: [
        {
          from: 'acme/api#1',
          to: 'acme/api#9',
          reason: 'the linked change already has 8 members (the limit)',
        },
      ],
    });
    expect(md).toContain('- acme/api#1 at `abcdef1` onto `main`');
    expect(md).toContain(
      '- ~~acme/schema#1~~ merged into `release`: its repository is taken at its new base',
    );
    expect(md).toContain('- ~~acme/web#1~~ closed: left the set');
    expect(md).toContain('- acme/api#1 → acme/api#9: the linked change already has 8 members (the limit)');
  });

  it('escapes what a PR author controls: a base branch cannot break out of its code span', () => {
    const md = renderSetSection({
      members: [{ ...member, baseRef: 'x` **bold** `y' }],
      left: [],
      refused: [],
    });
    expect(md).toContain('onto ``x` **bold** `y``');
  });

  it('names the merge order of the members only, producers first, whatever the spelling', () => {
    const md = renderSetSection({
      members: [member, { ...member, ref: pr('schema', 2) }],
      left: [],
      refused: [],
      mergeOrder: ['Acme/Schema', 'acme/web', 'acme/API'],
    });
    expect(md).toContain('**Merge order**: `Acme/Schema` → `acme/API` (producers before consumers)');
  });
});

describe('messages without a report', () => {
  const view = { members: [], left: [], refused: [] };

  it('an infrastructure error says it is not a verdict and offers a re-run; a suite error does not', () => {
    const infra = renderNoReport(view, 'clone failed', 'infrastructure');
    expect(infra.check.title).toBe('Tandem: infrastructure error, not a verdict on the code');
    expect(infra.check.summary).toContain('**Infrastructure error**:\n\n```\nclone failed\n```');
    // Shaped as a report's comment: the verdict line first, the footer last.
    expect(infra.comment.split('\n')[0]).toBe(
      '⚠️ **Infrastructure error** — not a verdict on the code: clone failed',
    );
    expect(infra.comment).toContain('Re-run the check or comment `/tandem run` once the cause is fixed.');
    expect(infra.comment.split('\n').at(-1)).toBe('<sub>Tandem</sub>');
    const suite = renderNoReport(view, 'suite.yml: field "tests" missing\n  at tests[0]', 'suite');
    expect(suite.check.title).toBe('Tandem: invalid suite — not a verdict on the code');
    expect(suite.comment.split('\n')[0]).toBe(
      '⚠️ **Invalid suite** — not a verdict on the code: suite.yml: field "tests" missing',
    );
    // A message of several lines is kept whole, folded, verbatim in a fence.
    expect(suite.comment).toContain('<details><summary>The whole message</summary>');
    expect(suite.comment).toContain('```\nsuite.yml: field "tests" missing\n  at tests[0]\n```');
    expect(suite.comment).not.toContain('Re-run');
    expect(suite.comment).not.toContain('/tandem run');
  });

  it('message text cannot inject Markdown into the verdict line', () => {
    const out = renderNoReport(view, '<img src=x> @team **bold**', 'infrastructure');
    const first = out.comment.split('\n')[0] ?? '';
    expect(first).not.toMatch(/(^|[^\\])<img/);
    expect(first).toContain('\\<img src=x\\>');
    expect(first).toContain('@\u200bteam');
    expect(first).toContain('\\*\\*bold\\*\\*');
  });

  it('a refused member, an invalid tandem.yml and the Actions hand-off', () => {
    const refused = renderRefused(view, 'the linked change already has 2 members (the limit)');
    expect(refused.check.title).toBe('Tandem: not evaluated (linked change over its limits)');
    expect(refused.comment).toMatch(
      /^⛔ \*\*Not evaluated\*\* — the linked change already has 2 members \(the limit\)\n\nUnlink pull requests/,
    );
    expect(refused.check.summary).toMatch(/^Not evaluated: the linked change already has 2 members/);
    expect(renderInvalidConfig('acme', 'matrix', 'expected one of full')).toEqual({
      title: 'Tandem: invalid configuration (matrix)',
      summary: '`.github/tandem.yml` in `acme/.github` is invalid at `matrix`: expected one of full',
    });
    const members = ['acme/api#1', 'acme/schema#2'];
    expect(renderHandoffProgress({ workflow: 'tandem.yml', evaluator: 'acme/suites', members })).toEqual({
      title: 'Tandem: dispatched to GitHub Actions',
      summary:
        'Dispatched to the `tandem.yml` workflow of `acme/suites`; waiting for the run to start.\n\nLinked change: acme/api#1, acme/schema#2.',
    });
    expect(
      renderHandoffProgress({
        workflow: 'tandem.yml',
        evaluator: 'acme/suites',
        members,
        runUrl: 'https://x/runs/1',
      }).summary,
    ).toBe('Evaluating in GitHub Actions: https://x/runs/1\n\nLinked change: acme/api#1, acme/schema#2.');
  });
});
