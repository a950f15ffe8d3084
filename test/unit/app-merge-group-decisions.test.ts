/**
 * The merge-queue gate's decisions on the in-memory GitHub port: every group GitHub asks about
 * gets a `Tandem` check on its head commit at once, and that check is always completed, with
 * what the gate decided: neutral when there is nothing to gate (no `tandem.yml`, no suite over
 * the queue's repository, a ref naming no PR, a PR the App cannot see, `executor: actions`),
 * cancelled when GitHub destroys the group first. The same gate over HTTP and Docker:
 * test/e2e/app-merge-queue.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { OrgConfigCache } from '../../src/app/evaluations/org-config-cache.ts';
import { MergeGroupGate } from '../../src/app/merge-queue/merge-group-gate.ts';
import type { MergeGroup } from '../../src/core/merge-group.schema.ts';
import { useTempStore } from './app-fixtures.ts';
import { INSTALLATION, memoryWorld } from './memory-world.ts';

const temp = useTempStore('tandem-merge-groups-');
const log = { info: () => {}, warn: () => {}, error: () => {} };
const HEAD = 'e'.repeat(40);
const CONFIG = (extra = '') => `evaluator: acme/suites
suites:
  - name: s
    repos: [acme/api, acme/web]
    path: s/suite.yml
${extra}`;

const group = (over: Partial<MergeGroup> = {}): MergeGroup => ({
  owner: 'acme',
  repo: 'api',
  installationId: INSTALLATION,
  headSha: HEAD,
  headRef: `refs/heads/gh-readonly-queue/main/pr-5-${'f'.repeat(40)}`,
  baseSha: 'c'.repeat(40),
  baseBranch: 'main',
  pullNumber: 5,
  ...over,
});

async function gate(config: string | undefined) {
  const w = await memoryWorld(temp);
  if (config !== undefined) w.gh.setOrgConfig('acme', config);
  const g = new MergeGroupGate({
    store: w.store,
    executor: { run: () => Promise.reject(new Error('no group reaches the executor in these tests')) },
    configs: new OrgConfigCache({ ttlMs: 60_000 }),
    github: async () => w.gh,
    log,
    concurrency: 1,
  });
  /** Asks the gate about `g` and waits until its check is completed; returns the check. */
  const decide = async (g0: MergeGroup) => {
    await g.request(g0);
    await g.idle();
    return w.gh.checks.filter((c) => c.headSha === g0.headSha);
  };
  return { ...w, gate: g, decide };
}

describe('the merge-queue gate on the in-memory GitHub', () => {
  it('puts one check on the group head, tagged with the queue ref, and completes it neutral without a tandem.yml', async () => {
    const w = await gate(undefined);
    const checks = await w.decide(group());
    expect(checks.map((c) => [c.repo, c.externalId, c.status, c.conclusion, c.title])).toEqual([
      [
        'acme/api',
        `merge-group:${group().headRef}`,
        'completed',
        'neutral',
        expect.stringContaining('tandem.yml'),
      ],
    ]);
    // The group is over: nothing is left stored for a restart to resume.
    expect((await w.store.mergeGroups.all()).open).toEqual([]);
    expect(w.gh.calls).not.toContain(`pull acme/api#5`);
  });

  it('completes neutral when no suite covers the queue repository, without reading the queued PR', async () => {
    const w = await gate(CONFIG());
    w.gh.addRepo('acme/docs');
    const [check] = await w.decide(group({ repo: 'docs' }));
    expect([check?.conclusion, check?.title]).toEqual(['neutral', expect.stringContaining('no suite')]);
    expect(w.gh.calls.filter((c) => c.startsWith('pull '))).toEqual([]);
  });

  it('completes neutral when the queue ref names no PR, or names one the App cannot see', async () => {
    const w = await gate(CONFIG());
    const [noPr] = await w.decide(group({ headRef: 'refs/heads/some-branch', pullNumber: undefined }));
    expect([noPr?.conclusion, noPr?.title]).toEqual(['neutral', expect.stringContaining('no pull request')]);
    const unseen = group({ headSha: 'd'.repeat(40) });
    const [gone] = await w.decide(unseen);
    expect([gone?.conclusion, gone?.title]).toEqual([
      'neutral',
      expect.stringContaining('no pull request known'),
    ]);
    expect(w.gh.calls).toContain('pull acme/api#5');
  });

  it('does not gate the queue of an organization on executor: actions', async () => {
    const w = await gate(CONFIG('executor: actions\n'));
    w.gh.addPull({ repo: 'acme/api', number: 5 });
    const [check] = await w.decide(group());
    expect([check?.conclusion, check?.title]).toEqual([
      'neutral',
      expect.stringContaining('executor: actions'),
    ]);
  });

  it('a group destroyed before its evaluation began is cancelled, the reason on its check', async () => {
    const w = await gate(CONFIG());
    await w.gate.request(group());
    w.gate.destroy(group(), 'dequeued');
    await w.gate.idle();
    const [check] = w.gh.checks;
    expect([check?.status, check?.conclusion]).toEqual(['completed', 'cancelled']);
    expect(w.gh.calls).not.toContain('orgConfig acme');
    expect((await w.store.mergeGroups.all()).open).toEqual([]);
  });

  it('a second request for a group being gated adds no second check', async () => {
    const w = await gate(undefined);
    // Both at once: the second arrives while the first is still storing the group.
    await Promise.all([w.gate.request(group()), w.gate.request(group())]);
    await w.gate.idle();
    expect(w.gh.checks).toHaveLength(1);
  });
});
