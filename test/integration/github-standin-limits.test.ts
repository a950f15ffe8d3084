/**
 * The stand-in's simulated secondary limit (opt-in): past `contentPerMinute` content-creating
 * requests in a minute it answers as GitHub does, 403 "secondary rate limit" with `retry-after`;
 * reads and check-run writes are not counted.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type StandIn, startGitHubStandIn } from '../support/github-standin/index.ts';

let standIn: StandIn | undefined;
afterEach(async () => {
  await standIn?.close();
  standIn = undefined;
});

async function world(opts: Parameters<typeof startGitHubStandIn>[0] = {}) {
  const si = await startGitHubStandIn(opts);
  standIn = si;
  si.addRepo({ owner: 'acme', name: 'api' });
  si.addPullRequest({
    owner: 'acme',
    repo: 'api',
    title: 't',
    headRef: 'f',
    headSha: 'a'.repeat(40),
    baseSha: 'b'.repeat(40),
  });
  const token = si.mintToken(si.installationId('acme'));
  const call = (method: string, path: string, body?: object) =>
    fetch(`${si.apiUrl}${path}`, {
      method,
      headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  return { si, call };
}

describe('stand-in secondary limits', () => {
  it('refuses content creation past the limit with retry-after, and counts only content', async () => {
    const { si, call } = await world({ secondaryLimits: { contentPerMinute: 2 } });
    const comment = () => call('POST', '/repos/acme/api/issues/1/comments', { body: 'hi' });
    expect((await comment()).status).toBe(201);
    // A check run and reads do not use the content budget.
    const check = await call('POST', '/repos/acme/api/check-runs', {
      name: 'Tandem',
      head_sha: 'a'.repeat(40),
    });
    expect(check.status).toBe(201);
    expect((await call('GET', '/repos/acme/api/issues/1/comments')).status).toBe(200);
    expect((await comment()).status).toBe(201);
    const refused = await comment();
    expect(refused.status).toBe(403);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { message: string }).message).toMatch(/secondary rate limit/);
    expect(si.secondaryLimited).toBe(1);
    expect(si.comments('acme', 'api', 1)).toHaveLength(2);
  });

  it('is off unless asked for', async () => {
    const { call } = await world();
    for (let i = 0; i < 100; i++) {
      const r = await call('POST', '/repos/acme/api/issues/1/comments', { body: `c${i}` });
      expect(r.status).toBe(201);
    }
  });
});
