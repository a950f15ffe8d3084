/**
 * The pure parts of the App's metrics: the route classes GitHub requests are counted under, and
 * the pacing gate reporting the starts a limit held (not those its own spacing delayed).
 */
import { describe, expect, it } from 'vitest';
import { Gate } from '../../src/app/octokit.ts';
import { githubRouteClass } from '../../src/app/ops/github-route-class.ts';

describe('githubRouteClass', () => {
  it.each([
    ['https://api.github.com/repos/acme/api/check-runs', 'check-runs'],
    ['https://api.github.com/repos/acme/api/check-runs/12?x=1', 'check-runs'],
    ['http://127.0.0.1:5000/api/v3/repos/acme/api/issues/3/comments', 'comments'],
    ['/repos/acme/api/issues/comments/99', 'comments'],
    ['/repos/acme/api/pulls/3/merge', 'merges'],
    ['/repos/acme/api/pulls/3', 'pulls'],
    ['/app/installations/7/access_tokens', 'installation-token'],
    ['/search/issues?q=x', 'search'],
    ['/repos/acme/.github/contents/.github%2Ftandem.yml', 'contents'],
    ['/repos/acme/api', 'repos'],
    ['/api/graphql', 'graphql'],
    ['/rate_limit', 'other'],
  ])('%s is %s', (url, route) => {
    expect(githubRouteClass(url)).toBe(route);
  });
});

describe('Gate limit waits', () => {
  it('reports a start a window held, with how long it waited', async () => {
    const waits: number[] = [];
    const gate = new Gate(10, 0, { windows: [{ max: 1, ms: 40 }], onLimitWait: (ms) => waits.push(ms) });
    await Promise.all([gate.schedule(async () => 1), gate.schedule(async () => 2)]);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(30);
  });

  it('does not report spacing (minTime) as a limit wait', async () => {
    const waits: number[] = [];
    const gate = new Gate(1, 20, { onLimitWait: (ms) => waits.push(ms) });
    await Promise.all([gate.schedule(async () => 1), gate.schedule(async () => 2)]);
    expect(waits).toEqual([]);
  });
});
