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
import { API_OK, orgConfig, SCHEMA_OK } from '../e2e/app-harness.ts';
import { type Scenario, useScenario } from '../helpers/app-scenario.ts';
import { StubExecutor } from '../support/stub-executor.ts';

const scenario = useScenario();

/**
 * Mallory's PRs on acme/web, each linking to acme/api#1, delivered as `opened` webhooks. They are
 * opened while no suite covers acme/web (the App indexes them and asks who may confirm their
 * links, but has nothing to evaluate or publish for them: 500 verdict comments would take GitHub's
 * content budget hours), then the org covers acme/web again: the index is as webhooks built it.
 */
async function strangers(w: Scenario, count: number): Promise<void> {
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
    // A keep-alive connection the App closed as it was reused (a busy machine): GitHub delivers
    // again, and the App's deduplication makes a second delivery of a handled one harmless.
    for (let attempt = 1; ; attempt++) {
      try {
        await w.sendPull('opened', 'web', pr.number);
        return;
      } catch (e) {
        if (attempt >= 3) throw e;
      }
    }
  };
  // Twenty deliveries in flight at a time, as GitHub delivers a burst.
  for (let i = 0; i < count; i += 20)
    await Promise.all(Array.from({ length: Math.min(20, count - i) }, (_, j) => send(i + j)));
  await w.settle();
  w.standIn.setFile('acme', '.github', '.github/tandem.yml', orgConfig());
  await w.sender.installation('created', { installationId: w.installationId, account: 'acme' });
  await w.settle();
}

/** The maintainers' set (acme/schema#1 + acme/api#1), evaluated once. */
async function maintainers(w: Scenario): Promise<void> {
  w.standIn.setPermission('acme', 'api', 'alice', 'write');
  await w.openPull('schema', SCHEMA_OK, 'Depends-On: acme/api#1');
  await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
  await w.sendPull('opened', 'schema', 1);
  await w.sendPull('opened', 'api', 1);
  await w.settle();
}

/** GitHub requests (at the stand-in) a writer's `/tandem run --fresh` on acme/api#1 costs. */
async function reevaluation(w: Scenario): Promise<number> {
  const before = w.standIn.requests.length;
  await w.postComment('api', '/tandem run --fresh', 'alice');
  return w.standIn.requests.length - before;
}

describe("attack: 500 strangers' links to a maintainer's PR", () => {
  it('cost its evaluation no more GitHub requests than none, and are named at most five, folded', async () => {
    const w = await scenario().with({ executor: new StubExecutor() }).start();
    await maintainers(w);
    const quiet = await reevaluation(w);
    await strangers(w, 500);
    const flooded = await reevaluation(w);
    expect(flooded, `${flooded} requests with 500 strangers, ${quiet} with none`).toBeLessThanOrEqual(
      quiet + 5,
    );
    const comment = w.stickyComments('api', 1)[0]?.body ?? '';
    expect(comment).toMatch(/<details><summary>500 link\(s\) of other pull requests not followed<\/summary>/);
    expect(comment).toContain('… and 495 more');
    expect(comment.split('\n').filter((l) => l.includes('acme/web#')).length).toBeLessThanOrEqual(5);
  }, 600_000);
});
