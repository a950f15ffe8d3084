import { describe, expect, it } from 'vitest';
import { git } from '../../src/engine/git/git.ts';
import { API_OK, type ObservedExecutor, SCHEMA_OK } from '../e2e/app-harness.ts';
import { type Scenario, useScenario } from '../helpers/app-scenario.ts';
import { commitOn } from '../helpers/git-fixtures.ts';

const scenario = useScenario();
const REUSED = 'Reused the result for these heads';

/** The linked change on `main`, evaluated once; `release` exists in acme/api at main's tip. */
async function passedOnMain(): Promise<{ w: Scenario; executor: ObservedExecutor }> {
  const w = await scenario()
    .observe()
    .config({ extra: 'queue: { sequential: true }\n' })
    .mergeable()
    .writer('alice', ['api', 'schema'])
    .start();
  const executor = w.observed;
  await git(['branch', 'release', w.repos.api!.sha], { cwd: w.repos.api!.bare });
  w.publishBranch('api', 'release', w.repos.api!.sha);
  await w.openPull('schema', SCHEMA_OK, 'Depends-On: acme/api#1');
  await w.openPull('api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
  await w.sendPull('opened', 'schema', 1);
  await w.sendPull('opened', 'api', 1);
  await w.settle();
  expect(executor.runs).toHaveLength(1);
  expect(w.tandemChecks('api').map((c) => c.conclusion)).toEqual(['success']);
  // Unchanged: a re-run republishes the result (what the attacks below must not get).
  await w.postComment('api', '/tandem run', 'alice');
  expect(executor.runs).toHaveLength(1);
  expect(w.stickyComments('api', 1)[0]!.body).toContain(REUSED);
  return { w, executor };
}

/** acme/api#1 now targets `release` (as GitHub shows it after "Edit" → base). */
function retarget(w: Scenario): void {
  w.standIn.updatePullRequest('acme', 'api', 1, { baseRef: 'release', baseSha: w.repos.api!.sha });
}

const merges = (w: Scenario) =>
  w.standIn.requests.filter((r) => r.method === 'PUT' && r.path.endsWith('/merge')).map((r) => r.path);

describe('attack: a result reused on another base', () => {
  it('a PR retargeted from main to release is evaluated again', async () => {
    const { w, executor } = await passedOnMain();
    retarget(w);
    await w.sendPull('edited', 'api', 1, {
      changes: { base: { ref: { from: 'main' }, sha: { from: 'x' } } },
    });
    await w.settle();
    expect(executor.runs).toHaveLength(2);
    const api = executor.runs[1]!.spec.targets.find((t) => t.repo === 'acme/api')!;
    expect(api.base).toBe(w.repos.api!.sha);
    expect(w.stickyComments('api', 1)[0]!.body).not.toContain(REUSED);
    // And a re-run on the new base reuses that new result, not the one from main.
    await w.postComment('api', '/tandem run', 'alice');
    expect(executor.runs).toHaveLength(2);
  });

  it('a base branch that moved is evaluated again', async () => {
    const { w, executor } = await passedOnMain();
    const moved = await commitOn(w.repos.schema!, 'main', { 'README.md': 'moved\n' }, 'main moves', {
      from: w.repos.schema!.sha,
    });
    w.publishBranch('schema', 'main', moved);
    await w.postComment('api', '/tandem run', 'alice');
    expect(executor.runs).toHaveLength(2);
    expect(executor.runs[1]!.spec.targets.find((t) => t.repo === 'acme/schema')!.base).toBe(moved);
    expect(w.stickyComments('api', 1)[0]!.body).not.toContain(REUSED);
  });

  it('/tandem merge refuses a member retargeted since its evaluation, even unannounced', async () => {
    const { w } = await passedOnMain();
    // The retarget's webhook is lost: only GitHub knows.
    retarget(w);
    await w.postComment('api', '/tandem merge', 'alice');
    expect(merges(w)).toEqual([]);
    expect(w.standIn.pullRequest('acme', 'api', 1).merged).toBe(false);
    const status = w.standIn
      .comments('acme', 'api', 1)
      .find((c) => c.body?.includes('<!-- tandem:merge -->'));
    expect(status?.body).toContain('now targets release');
  });
});
