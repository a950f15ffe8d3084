/**
 * The member-by-member `/tandem merge` (organizations on `executor: actions`) phase by phase:
 * the basis (evaluation, merge order), the set's refusals, the rights on every repository, the
 * preflight of every member and the merges in order. Real SQLite store, real HTTP to the GitHub
 * stand-in.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeBasis, setRefusals } from '../../src/app/merge-command/merge-set.ts';
import { mergeInOrder, preflight, rightsRefusal } from '../../src/app/merge-command/merge-set-phases.ts';
import { octokitPort } from '../../src/app/port/octokit-port.ts';
import { Store } from '../../src/app/store/store.ts';
import type { MergeStep } from '../../src/core/merge-command-plan.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';
import { type StandIn, startGitHubStandIn } from '../support/github-standin/index.ts';
import { standInClient } from './app-fixtures.ts';

let dir: string | undefined;
let standIn: StandIn | undefined;
let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  await standIn?.close();
  if (dir) await removeTempDir(dir);
  store = undefined;
  standIn = undefined;
  dir = undefined;
});

const HEAD = 'a'.repeat(40);

/** acme/schema#1 ← acme/api#1, evaluated and resolved with merge_order schema, api. */
async function world() {
  standIn = await startGitHubStandIn();
  dir = await makeTempDir('tandem-merge-phases-');
  const s = await Store.open(join(dir, 'tandem.db'));
  store = s;
  for (const repo of ['schema', 'api'] as const) {
    standIn.addRepo({ owner: 'acme', name: repo });
    standIn.setPermission('acme', repo, 'writer', 'write');
    standIn.addPullRequest({
      owner: 'acme',
      repo,
      title: repo,
      body: '',
      headRef: 'feature',
      headSha: HEAD,
      baseRef: 'main',
      baseSha: 'b'.repeat(40),
    });
    await s.pulls.upsert({
      owner: 'acme',
      repo,
      number: 1,
      installationId: 7,
      state: 'open',
      headSha: HEAD,
      headRef: 'feature',
      baseRef: 'main',
      links: repo === 'api' ? [{ owner: 'acme', repo: 'schema', number: 1 }] : [],
    });
  }
  const id = await s.evaluations.create({
    setKey: 'acme/api#1',
    seed: 'acme/api#1',
    installationId: 7,
    matrix: null,
  });
  await s.evaluations.start(id);
  await s.evaluations.setMembers(id, [
    { key: 'acme/api#1', headSha: HEAD },
    { key: 'acme/schema#1', headSha: HEAD },
  ]);
  await s.evaluations.recordVerdict(id, { outcome: 'resolved', mergeOrder: ['acme/schema', 'acme/api'] });
  await s.evaluations.publish(id);
  const req = { seed: 'acme/api#1', linked: ['acme/api#1', 'acme/schema#1'], requestedBy: 'writer' };
  return { s, gh: octokitPort(standInClient(standIn)), req };
}

const fresh = (basis: { sequence: Array<{ key: string; headSha: string }> }): MergeStep[] =>
  basis.sequence.map((m) => ({ ...m, result: 'not-attempted' }));

describe('member-by-member /tandem merge, phase by phase', () => {
  it('the basis orders producers first; the set refuses a grown set', async () => {
    const { s, req } = await world();
    const basis = (await mergeBasis(s, req))!;
    expect(basis.sequence.map((m) => m.key)).toEqual(['acme/schema#1', 'acme/api#1']);
    expect(setRefusals(basis, req.linked)).toEqual([]);
    expect(setRefusals(basis, [...req.linked, 'acme/web#3'])[0]).toContain('acme/web#3');
    expect(await mergeBasis(s, { ...req, seed: 'acme/web#9', linked: [] })).toBeUndefined();
  });

  it('rights: a repository the requester may not write refuses its members', async () => {
    const { s, gh, req } = await world();
    const basis = (await mergeBasis(s, req))!;
    const steps = fresh(basis);
    expect(await rightsRefusal(gh, basis, steps, 'writer')).toBeUndefined();
    standIn!.setPermission('acme', 'schema', 'writer', 'read');
    expect(await rightsRefusal(gh, basis, steps, 'writer')).toBe(
      'writer may not merge acme/schema#1 (no write access)',
    );
    expect(steps[0]).toMatchObject({
      result: 'refused',
      reason: 'writer has no write access to acme/schema',
    });
  });

  it('preflight: a moved head refuses before anything merges; then the merges go in order', async () => {
    const { s, gh, req } = await world();
    const basis = (await mergeBasis(s, req))!;
    standIn!.updatePullRequest('acme', 'api', 1, { headSha: 'c'.repeat(40) });
    const steps = fresh(basis);
    expect(await preflight(gh, basis, steps)).toBeUndefined();
    expect(steps[1]).toMatchObject({ result: 'refused' });
    expect(steps[1]!.result === 'refused' && steps[1]!.reason).toContain('head moved');

    standIn!.updatePullRequest('acme', 'api', 1, { headSha: HEAD });
    const ok = fresh(basis);
    const bases = await preflight(gh, basis, ok);
    expect(bases).toEqual(['main', 'main']);
    let recorded = 0;
    await mergeInOrder(gh, basis, ok, bases!, () => {
      recorded += 1;
    });
    expect(ok.map((x) => x.result)).toEqual(['merged', 'merged']);
    expect(recorded).toBe(2);
    const merges = standIn!.requests.filter((r) => r.method === 'PUT' && r.path.endsWith('/merge'));
    expect(merges.map((r) => r.path)).toEqual([
      '/repos/acme/schema/pulls/1/merge',
      '/repos/acme/api/pulls/1/merge',
    ]);
  });
});
