import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { pullInfoOf, pullRequestSchema } from '../../src/core/pull-request.schema.ts';

const payload = (over: Record<string, unknown> = {}) => ({
  number: 12,
  state: 'open',
  merged: false,
  merged_at: null,
  title: 'Checkout field',
  body: 'Depends-On: acme/web#3',
  html_url: 'https://github.com/Acme/API/pull/12',
  head: { sha: 'h'.repeat(40), ref: 'feature', repo: { full_name: 'fork-owner/API', extra: 'ignored' } },
  base: {
    sha: 'b'.repeat(40),
    ref: 'main',
    repo: {
      name: 'API',
      full_name: 'Acme/API',
      owner: { login: 'Acme' },
      clone_url: 'https://github.com/Acme/API.git',
    },
  },
  user: { login: 'someone' },
  ...over,
});

describe('the pull request REST shape', () => {
  it('keeps the fields Tandem relies on and maps them to the domain view', () => {
    expect(pullInfoOf(payload())).toEqual({
      ref: { owner: 'Acme', repo: 'API', number: 12 },
      author: 'someone',
      state: 'open',
      title: 'Checkout field',
      body: 'Depends-On: acme/web#3',
      headSha: 'h'.repeat(40),
      headRef: 'feature',
      headRepo: 'fork-owner/API',
      baseSha: 'b'.repeat(40),
      baseRef: 'main',
      repo: 'Acme/API',
      htmlUrl: 'https://github.com/Acme/API/pull/12',
      cloneUrl: 'https://github.com/Acme/API.git',
    });
  });

  it.each([
    [{ state: 'closed', merged: true }, 'merged'],
    [{ state: 'closed', merged: null, merged_at: '2026-01-01T00:00:00Z' }, 'merged'],
    [{ state: 'closed', merged: false }, 'closed'],
    [{ body: null }, 'open'],
    // A deleted fork: GitHub sends the head's repository as null.
    [{ head: { sha: 'h'.repeat(40), ref: 'feature', repo: null } }, 'open'],
  ])('state of %j is %s', (over, state) => {
    expect(pullInfoOf(payload(over)).state).toBe(state);
  });

  it('names the missing field when GitHub sent something else', () => {
    const bad = payload({ base: { ref: 'main', repo: {} } });
    expect(() => pullInfoOf(bad)).toThrow(ZodError);
    const r = pullRequestSchema.safeParse(bad);
    expect(r.error?.issues.map((i) => i.path.join('.'))).toContain('base.sha');
  });
});
