/**
 * Issue 25, item 6: strangers' links cost the victim nothing. Mallory (no write access anywhere)
 * opens 500 PRs whose bodies say `Depends-On: acme/api#1`. The maintainers' set (acme/schema#1 +
 * acme/api#1) is then evaluated again: the GitHub requests that evaluation makes, counted at the
 * stand-in, must be the same (within a constant) as with no stranger at all, and its comment names
 * at most five of them, folded, with the count. Real App over HTTP and the GitHub stand-in; the
 * executor is the engine-less stub, since the engine makes no GitHub requests and the 500
 * strangers' own evaluations are only the setup here.
 */
import { describe, expect, it } from 'vitest';
import {
  API_OK,
  createWorld,
  destroyWorld,
  openPull,
  orgConfig,
  postComment,
  SCHEMA_OK,
  sendPull,
  settle,
  stickyComments,
  type World,
} from '../e2e/app-harness.ts';
import { StubExecutor } from '../support/stub-executor.ts';

/**
 * Mallory's PRs on acme/web, each linking to acme/api#1, delivered as `opened` webhooks. They are
 * opened while no suite covers acme/web (the App indexes them and asks who may confirm their
 * links, but has nothing to evaluate or publish for them: 500 verdict comments would take GitHub's
 * content budget hours), then the org covers acme/web again: the index is as webhooks built it.
 */
async function strangers(w: World, count: number): Promise<void> {
  w.standIn.setFile('acme', '.github', '.github/tandem.yml', orgConfig().replace(', acme/web]', ']'));
  await w.sender.installation('created', { installationId: w.installationId, account: 'acme' });
  const send = async (i: number) => {
    const pr = w.standIn.addPullRequest({
      owner: 'acme',
      repo: 'web',
      title: `Tiny fix ${i}`,
      body: 'Depends-On: acme/api#1',
      headRef: `fix-${i}`,
      headSha: i.toString(16).padStart(40, 'a'),
      baseRef: 'main',
      baseSha: w.repos.web!.sha,
      user: 'mallory',
    });
    await sendPull(w, 'opened', 'web', pr.number);
  };
  // Twenty deliveries in flight at a time, as GitHub delivers a burst.
  for (let i = 0; i < count; i += 20)
    await Promise.all(Array.from({ length: Math.min(20, count - i) }, (_, j) => send(i + j)));
  await settle(w);
  w.standIn.setFile('acme', '.github', '.github/tandem.yml', orgConfig());
  await w.sender.installation('created', { installationId: w.installationId, account: 'acme' });
  await settle(w);
}

/** GitHub requests the maintainers' re-evaluation makes, with `count` strangers linking in. */
async function victimRequests(count: number): Promise<{ requests: number; comment: string }> {
  const w = await createWorld({ executor: new StubExecutor() });
  try {
    return await measure(w, count);
  } finally {
    await destroyWorld(w);
  }
}

async function measure(w: World, count: number): Promise<{ requests: number; comment: string }> {
  w.standIn.setPermission('acme', 'api', 'alice', 'write');
  await openPull(w, 'schema', SCHEMA_OK, 'Depends-On: acme/api#1');
  await openPull(w, 'api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
  await sendPull(w, 'opened', 'schema', 1);
  await sendPull(w, 'opened', 'api', 1);
  await settle(w);
  await strangers(w, count);
  const before = w.standIn.requests.length;
  await postComment(w, 'api', '/tandem run --fresh', 'alice');
  const requests = w.standIn.requests.length - before;
  return { requests, comment: stickyComments(w, 'api', 1)[0]?.body ?? '' };
}

describe("attack: 500 strangers' links to a maintainer's PR", () => {
  it('cost its evaluation no more GitHub requests than none, and are named at most five, folded', async () => {
    const quiet = await victimRequests(0);
    const flooded = await victimRequests(Number(process.env.N ?? 500));
    expect(
      flooded.requests,
      `${flooded.requests} requests with 500 strangers, ${quiet.requests} with none`,
    ).toBeLessThanOrEqual(quiet.requests + 5);
    expect(flooded.comment).toMatch(
      /<details><summary>500 link\(s\) of other pull requests not followed<\/summary>/,
    );
    expect(flooded.comment).toContain('… and 495 more');
    expect(flooded.comment.split('\n').filter((l) => l.includes('acme/web#')).length).toBeLessThanOrEqual(5);
  }, 600_000);
});
