/**
 * What publishing an evaluation decides, on the in-memory GitHub port (test/support/memory-github.ts):
 * one sticky comment per member, created once and then edited (left alone when its text is the
 * same); each verdict's check conclusion and whether it offers a re-run; and a PR the caps
 * refused, less private than the set, told why without a word of the set's private members.
 */
import { describe, expect, it } from 'vitest';
import { CheckRunRegistry } from '../../src/app/evaluations/check-run-registry.ts';
import {
  closeRefused,
  type Members,
  publishFailure,
  publishReport,
} from '../../src/app/evaluations/publish-evaluation.ts';
import type { ResolvedSet } from '../../src/app/linking/resolve-set.ts';
import { InputError } from '../../src/core/errors.ts';
import { pullKey, repoOfPullKey } from '../../src/core/pull-ref.ts';
import { RepoMap } from '../../src/core/repo-name.ts';
import { privacyRank } from '../../src/core/repo-visibility.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { linkedReport, linkedView } from '../helpers/comment-cases.ts';
import { MemoryGitHub } from '../support/memory-github.ts';
import { useTempStore } from './app-fixtures.ts';
import { orgConfig } from './memory-world.ts';
import { infraErrorReport } from './report-fixtures.ts';

const temp = useTempStore('tandem-publish-');

/** acme/api#10 and acme/web#11 (comment-cases' two-member view) on the fake, each with its check. */
async function twoMembers() {
  const store = await temp.open();
  const gh = new MemoryGitHub().addRepo('acme/api').addRepo('acme/web');
  const view = linkedView(2);
  const checks = new CheckRunRegistry(store);
  const members: Members = [];
  for (const m of view.members) {
    gh.addPull({ repo: m.repo, number: m.ref.number, headSha: m.headSha });
    const key = pullKey(m.ref);
    members.push({ key, headSha: m.headSha, checkRunId: await checks.ensure(gh, key, m.headSha, null) });
  }
  const publish = (report: Report) => publishReport(gh, store, members, view, report, 'names');
  return { store, gh, view, members, publish };
}

const upserts = (gh: MemoryGitHub) => gh.calls.filter((c) => c.startsWith('upsertComment'));

describe('publishing a report', () => {
  it('creates each member’s comment once, edits it for a new verdict, and leaves it when the text is the same', async () => {
    const w = await twoMembers();
    await w.publish(linkedReport(2, 'resolved'));
    expect(upserts(w.gh)).toEqual(['upsertComment acme/api#10 created', 'upsertComment acme/web#11 created']);
    await w.publish(linkedReport(2, 'unresolved'));
    expect(upserts(w.gh).slice(2)).toEqual([
      'upsertComment acme/api#10 updated',
      'upsertComment acme/web#11 updated',
    ]);
    // The same result again: the comments on GitHub already say it, so none is edited.
    await w.publish(linkedReport(2, 'unresolved'));
    expect(upserts(w.gh).slice(4)).toEqual([
      'upsertComment acme/api#10 unchanged',
      'upsertComment acme/web#11 unchanged',
    ]);
    // One comment per member, the same text on each.
    expect(w.gh.comments.map((c) => c.pull)).toEqual(['acme/api#10', 'acme/web#11']);
    expect(w.gh.comments[0]!.body).toBe(w.gh.comments[1]!.body);
  });

  it.each([
    ['resolved', 'success', false, () => linkedReport(2, 'resolved')],
    ['unresolved', 'failure', false, () => linkedReport(2, 'unresolved')],
    // A merge conflict is fixed by updating the PR: a re-run cannot help.
    ['merge-conflict', 'failure', false, () => infraErrorReport()],
  ] as const)(
    'a %s report: every member’s check concludes %s (re-run offered: %s)',
    async (_, conclusion, rerun, report) => {
      const w = await twoMembers();
      await w.publish(report());
      expect(w.gh.checks.map((c) => [c.repo, c.status, c.conclusion, c.rerunOffered])).toEqual([
        ['acme/api', 'completed', conclusion, rerun],
        ['acme/web', 'completed', conclusion, rerun],
      ]);
      for (const m of w.members) expect(await w.store.checkRuns.open(m.key)).toEqual([]);
    },
  );

  it('no report, a suite the evaluator must fix: every check fails without a re-run', async () => {
    const w = await twoMembers();
    await publishFailure(w.gh, w.store, w.members, w.view, new InputError('tests is empty'), 'bad suite');
    expect(w.gh.checks.map((c) => [c.conclusion, c.rerunOffered])).toEqual([
      ['failure', false],
      ['failure', false],
    ]);
  });

  it('no report, infrastructure trouble: every check fails and offers a re-run', async () => {
    const w = await twoMembers();
    await publishFailure(w.gh, w.store, w.members, w.view, new Error('docker died'), 'docker died');
    expect(w.gh.checks.map((c) => [c.conclusion, c.rerunOffered])).toEqual([
      ['failure', true],
      ['failure', true],
    ]);
  });
});

describe('a PR the caps refused', () => {
  /**
   * acme/vault#1 (private) and acme/api#1 form the set; acme/web#2, public and linked from api,
   * is refused by the member cap and still carries its `queued` check.
   */
  async function refusedWorld(sharePrivate: boolean) {
    const store = await temp.open();
    const gh = new MemoryGitHub()
      .addRepo('acme/vault', { visibility: 'private' })
      .addRepo('acme/api')
      .addRepo('acme/web');
    const vault = gh.addPull({ repo: 'acme/vault', number: 1 });
    const api = gh.addPull({ repo: 'acme/api', number: 1, body: 'Depends-On: acme/vault#1 acme/web#2' });
    const web = gh.addPull({ repo: 'acme/web', number: 2 });
    await new CheckRunRegistry(store).ensure(gh, 'acme/web#2', web.headSha, null);
    const ranks = new RepoMap<number>();
    for (const p of [vault, api, web]) ranks.set(p.repo, privacyRank(p.visibility));
    const set: ResolvedSet = {
      members: [vault, api],
      needed: [],
      left: [],
      refused: [
        {
          from: 'acme/api#1',
          to: 'acme/web#2',
          reason: 'the linked change already has 2 members (the limit)',
          member: true,
        },
      ],
      context: [],
      rankOf: (k) => ranks.get(repoOfPullKey(k)) ?? privacyRank(undefined),
      sharePrivate,
    };
    const suite = orgConfig({ repos: ['acme/vault', 'acme/api', 'acme/web'] }).suites[0]!;
    await closeRefused(gh, store, set, suite);
    const check = gh.checks.find((c) => c.repo === 'acme/web');
    const comment = gh.comments.find((c) => c.pull === 'acme/web#2');
    return { store, check, comment };
  }

  it('is told why on its check and comment, which never name the private member', async () => {
    const { store, check, comment } = await refusedWorld(false);
    expect(check).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(await store.checkRuns.open('acme/web#2')).toEqual([]);
    for (const text of [check!.summary!, comment!.body]) {
      expect(text).toContain('already has 2 members');
      expect(text).toContain('acme/api#1');
      expect(text).not.toMatch(/vault/i);
    }
  });

  it('names the private member when the suite shares private repositories', async () => {
    const { comment } = await refusedWorld(true);
    expect(comment!.body).toContain('acme/vault#1');
  });
});
