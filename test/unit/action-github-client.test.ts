/**
 * The Action's REST client over real HTTP to the GitHub stand-in: rate limits are waited out by
 * the throttling plugin and, when they persist, reported as rate limits (never as a token that
 * cannot read the repository); refusals name the input; server errors are retried.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InfraError, InputError } from '../../src/core/errors.ts';
import { readJson } from '../../src/github/input-reads.ts';
import { createGitHubApi, type GitHubApi } from '../../src/github/token-client.ts';
import { type StandIn, startGitHubStandIn } from '../support/github-standin/index.ts';

const TOKEN = 'ghp_clientTestToken123';
const PATH = '/repos/acme/api/pulls/7';
const pullSchema = z.object({ number: z.number(), head: z.object({ sha: z.string() }) });

let api: StandIn;
beforeAll(async () => {
  api = await startGitHubStandIn({ tokens: { [TOKEN]: 'evaluator-bot' } });
  api.addRepo({ owner: 'acme', name: 'api' });
  api.addPullRequest({
    owner: 'acme',
    repo: 'api',
    number: 7,
    title: 'x',
    headRef: 'feature',
    headSha: 'a'.repeat(40),
    baseSha: 'b'.repeat(40),
  });
});
afterAll(async () => {
  await api?.close();
});

/** Short waits: the stand-in's limits last a second or two. */
const client = (token = TOKEN, baseUrl = api.url): GitHubApi =>
  createGitHubApi({ token, baseUrl, retries: 1, rateLimitRetries: 2, fallbackSecondaryRetryAfter: 0 });

const readPull = (gh: GitHubApi) =>
  readJson(
    gh,
    { label: 'acme/api#7', input: 'pull-requests', repo: 'acme/api' },
    (o) => o.rest.pulls.get({ owner: 'acme', repo: 'api', pull_number: 7 }),
    pullSchema,
  );

const attempts = (from: number) => api.requests.slice(from).filter((r) => r.path === PATH);

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the read to fail');
}

describe('the Action REST client', () => {
  it('reads and validates an answer', async () => {
    await expect(readPull(client())).resolves.toEqual({ number: 7, head: { sha: 'a'.repeat(40) } });
  });

  it('waits out a secondary rate limit (429 retry-after) and a primary one (403, remaining 0)', async () => {
    for (const kind of ['secondary', 'primary'] as const) {
      const before = api.requests.length;
      api.rateLimitNext(1, kind);
      await expect(readPull(client())).resolves.toMatchObject({ number: 7 });
      expect(attempts(before).map((r) => r.status)).toEqual([kind === 'secondary' ? 429 : 403, 200]);
    }
  });

  it('a secondary limit that persists is a rate limit, infrastructure trouble, not bad input', async () => {
    const before = api.requests.length;
    api.rateLimitNext(10, 'secondary');
    const err = await failure(readPull(client()));
    api.rateLimitNext(0);
    expect(err).toBeInstanceOf(InfraError);
    expect(err.message).toMatch(
      /^acme\/api#7: GitHub's secondary rate limit .*still exceeded after waiting \(429 /,
    );
    expect(err.message).not.toContain('does the "token" input read');
    // The first try and two waits.
    expect(attempts(before)).toHaveLength(3);
  });

  it('GitHub’s usual secondary limit, a 403 without retry-after, is a rate limit too', async () => {
    const before = api.requests.length;
    const message =
      'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.';
    api.failNext({ status: 403, count: 3, path: PATH, message });
    const err = await failure(readPull(client()));
    expect(err).toBeInstanceOf(InfraError);
    expect(err.message).toMatch(/GitHub's secondary rate limit .*\(403 You have exceeded/);
    expect(attempts(before)).toHaveLength(3);
    // Once the limit lifts, the same client reads again.
    api.failNext({ status: 403, count: 1, path: PATH, message });
    await expect(readPull(client())).resolves.toMatchObject({ number: 7 });
  });

  it('a request once rate limited that later fails otherwise is not called a rate limit', async () => {
    const gh = client();
    api.rateLimitNext(1, 'secondary');
    await expect(readPull(gh)).resolves.toMatchObject({ number: 7 });
    api.failNext({ status: 404, count: 1, path: PATH, message: 'Not Found' });
    const err = await failure(readPull(gh));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(
      'input "pull-requests": acme/api#7: 404 Not Found (does the "token" input read acme/api?)',
    );
  });

  it('a token that cannot read, or a missing PR, is bad input naming the input and the repository', async () => {
    const denied = await failure(readPull(client('ghp_wrong')));
    expect(denied).toBeInstanceOf(InputError);
    expect(denied.message).toBe(
      'input "pull-requests": acme/api#7: 401 Bad credentials (does the "token" input read acme/api?)',
    );
    expect((denied as InputError).field).toBe('pull-requests');
    const missing = await failure(
      readJson(
        client(),
        { label: 'acme/api#99', input: 'pull-requests', repo: 'acme/api' },
        (o) => o.rest.pulls.get({ owner: 'acme', repo: 'api', pull_number: 99 }),
        pullSchema,
      ),
    );
    expect(missing).toBeInstanceOf(InputError);
    expect(missing.message).toMatch(/^input "pull-requests": acme\/api#99: 404 /);
  });

  it('retries a server error; one that persists, or no connection, is infrastructure trouble', async () => {
    const before = api.requests.length;
    api.failNext({ status: 502, count: 1, path: PATH });
    await expect(readPull(client())).resolves.toMatchObject({ number: 7 });
    expect(attempts(before).map((r) => r.status)).toEqual([502, 200]);

    api.failNext({ status: 503, count: 2, path: PATH, message: 'down' });
    const down = await failure(readPull(client()));
    expect(down).toBeInstanceOf(InfraError);
    expect(down.message).toBe('acme/api#7: GitHub answered 503 down');

    // A port nothing listens on.
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((r) => server.close(() => r()));
    const offline = await failure(readPull(client(TOKEN, `http://127.0.0.1:${port}`)));
    expect(offline).toBeInstanceOf(InfraError);
    expect(offline.message).toMatch(new RegExp(`^acme/api#7: cannot reach http://127.0.0.1:${port}: `));
  });

  it('an answer of the wrong shape is infrastructure trouble naming the read', async () => {
    const err = await failure(
      readJson(
        client(),
        { label: 'acme/api#7', input: 'pull-requests', repo: 'acme/api' },
        (o) => o.rest.pulls.get({ owner: 'acme', repo: 'api', pull_number: 7 }),
        z.object({ number: z.string() }),
      ),
    );
    expect(err).toBeInstanceOf(InfraError);
    expect(err.message).toMatch(/^acme\/api#7: unexpected answer from http:\/\/127\.0\.0\.1:\d+: /);
  });
});
