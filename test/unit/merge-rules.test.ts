import { describe, expect, it } from 'vitest';
import { codeOwnersOf, judgeMergeRules, mergeRulesOf } from '../../src/core/merge-rules.ts';

const none = { approvals: 0, codeOwners: false, signatures: false, mergeQueue: false };
const facts = { approvers: [] as string[], ownersByFile: [] as string[][], unsignedCommits: [] as string[] };

describe('mergeRulesOf', () => {
  it('takes the strictest of rulesets and branch protection', () => {
    expect(
      mergeRulesOf(
        [
          { type: 'pull_request', parameters: { required_approving_review_count: 2 } },
          {
            type: 'pull_request',
            parameters: { required_approving_review_count: 1, require_code_owner_review: true },
          },
          { type: 'required_signatures' },
          { type: 'merge_queue', parameters: {} },
          { type: 'deletion' },
        ],
        { required_pull_request_reviews: { required_approving_review_count: 1 } },
      ),
    ).toEqual({ approvals: 2, codeOwners: true, signatures: true, mergeQueue: true });
    expect(mergeRulesOf([], { required_signatures: { enabled: true } })).toEqual({
      ...none,
      signatures: true,
    });
    expect(mergeRulesOf([])).toEqual(none);
  });
});

describe('judgeMergeRules', () => {
  it('hands a merge-queue branch to its queue before anything else', () => {
    expect(judgeMergeRules('acme/api#1', { ...none, mergeQueue: true, approvals: 3 }, facts)?.kind).toBe(
      'queue',
    );
  });
  it('counts approvals, then code owners (users only; a team cannot be confirmed), then signatures', () => {
    const rules = { ...none, approvals: 1, codeOwners: true, signatures: true };
    expect(judgeMergeRules('k', rules, facts)?.reason).toBe(
      'its branch requires 1 approving review by people with write access; it has 0',
    );
    const owned = { ...facts, approvers: ['Bob'], ownersByFile: [['@bob'], ['@acme/core']] };
    expect(judgeMergeRules('k', rules, owned)?.reason).toBe(
      "it waits on a code owner's approval (@acme/core)",
    );
    const signedOff = { ...owned, ownersByFile: [['@bob']], unsignedCommits: ['0123456789abcdef'] };
    expect(judgeMergeRules('k', rules, signedOff)?.reason).toBe(
      'its branch requires verified signatures; 1 commit (0123456) is not verified',
    );
    expect(judgeMergeRules('k', rules, { ...signedOff, unsignedCommits: [] })).toBeUndefined();
  });
});

describe('codeOwnersOf', () => {
  const file = [
    '# owners',
    '*       @all',
    '*.js    @js',
    '/docs/  @docs',
    'src/api/** @api @acme/api',
    '',
  ].join('\n');
  it('takes the last matching line', () => {
    expect(codeOwnersOf(file, 'README.md')).toEqual(['@all']);
    expect(codeOwnersOf(file, 'lib/index.js')).toEqual(['@js']);
    expect(codeOwnersOf(file, 'docs/guide.md')).toEqual(['@docs']);
    expect(codeOwnersOf(file, 'src/api/deep/x.ts')).toEqual(['@api', '@acme/api']);
    expect(codeOwnersOf('', 'a')).toEqual([]);
  });
});
