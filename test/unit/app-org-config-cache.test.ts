/**
 * The one `tandem.yml` cache: a burst shares one load, the TTL bounds how long webhooks trust
 * it, an evaluation's fresh read replaces it, a failed load is retried, `invalidate` forgets it.
 * The loader is injected: this is the cache's logic, the loader has its own tests.
 */
import { describe, expect, it } from 'vitest';
import { OrgConfigCache } from '../../src/app/evaluations/org-config-cache.ts';
import type { GitHubPort } from '../../src/app/port/github-port.ts';
import { parseOrgConfig } from '../../src/github/org-config.ts';

const gh = {} as GitHubPort;
const YAML = (group: boolean) => `evaluator: acme/suites
suites:
  - name: s
    repos: [acme/api]
    path: s.yml
group_by_branch: ${group}
`;

function harness(texts: Array<string | Error>) {
  let clock = 0;
  const calls: string[] = [];
  const cache = new OrgConfigCache({
    ttlMs: 1_000,
    now: () => clock,
    load: async (_gh, org) => {
      calls.push(org);
      const next = texts.shift();
      if (next === undefined) throw new Error('no more loads expected');
      if (next instanceof Error) throw next;
      return parseOrgConfig(next);
    },
  });
  return { cache, calls, advance: (ms: number) => (clock += ms) };
}

describe('OrgConfigCache', () => {
  it('shares one load across a burst and within the TTL, then loads again', async () => {
    const h = harness([YAML(false), YAML(true)]);
    const [a, b] = await Promise.all([h.cache.recent(gh, 1, 'acme'), h.cache.recent(gh, 1, 'acme')]);
    expect(a).toBe(b);
    h.advance(999);
    await h.cache.recent(gh, 1, 'acme');
    expect(h.calls).toEqual(['acme']);
    h.advance(1);
    const later = await h.cache.recent(gh, 1, 'acme');
    expect(h.calls).toHaveLength(2);
    expect(later.kind === 'ok' && later.config.group_by_branch).toBe(true);
  });

  it('keeps an evaluation’s fresh read for the webhooks that follow', async () => {
    const h = harness([YAML(false), YAML(true)]);
    await h.cache.recent(gh, 1, 'acme');
    await h.cache.fresh(gh, 1, 'acme');
    expect(h.cache.config(1)?.group_by_branch).toBe(true);
    const cached = await h.cache.recent(gh, 1, 'acme');
    expect(cached.kind === 'ok' && cached.config.group_by_branch).toBe(true);
    expect(h.calls).toHaveLength(2);
  });

  it('forgets a failed load so the next caller tries again, keeping the last valid config', async () => {
    const h = harness([YAML(true), new Error('502'), YAML(false)]);
    await h.cache.fresh(gh, 1, 'acme');
    await expect(h.cache.fresh(gh, 1, 'acme')).rejects.toThrow('502');
    expect(h.cache.config(1)?.group_by_branch).toBe(true);
    const retried = await h.cache.recent(gh, 1, 'acme');
    expect(retried.kind).toBe('ok');
    expect(h.calls).toHaveLength(3);
  });

  it('has no valid config after an invalid one, and loads again after `invalidate`', async () => {
    const h = harness([YAML(true), 'suites: 3\n', YAML(true)]);
    await h.cache.recent(gh, 1, 'acme');
    const invalid = await h.cache.fresh(gh, 1, 'acme');
    expect(invalid.kind).toBe('invalid');
    expect(h.cache.config(1)).toBeUndefined();
    h.cache.invalidate(1);
    await h.cache.recent(gh, 1, 'acme');
    expect(h.calls).toHaveLength(3);
    expect(h.cache.config(1)?.group_by_branch).toBe(true);
    // Installations are kept apart.
    expect(h.cache.config(2)).toBeUndefined();
  });
});
