/**
 * The set as members see it: the default member cap from `tandem.yml`, and how members that left
 * (closed, merged into a branch) and refused links read in the comment.
 */
import { describe, expect, it } from 'vitest';
import { renderSetSection } from '../../src/app/publish.ts';
import type { PullRef } from '../../src/core/link-parser.ts';
import { DEFAULT_MAX_MEMBERS, expandLinkedSet, type LinkNode } from '../../src/core/linked-set.ts';
import { validateOrgConfig } from '../../src/core/org-config.schema.ts';
import type { PullInfo } from '../../src/github/pull-requests.ts';

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
      { from: 'acme/api#8', to: 'acme/api#9', reason: 'the linked change already has 8 members (the limit)' },
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
    baseRef: 'main',
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
});
