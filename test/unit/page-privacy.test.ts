/**
 * The privacy boundary as a property (issue 25, item 4): for many random linked sets with private,
 * internal and public members, every kind of text the App writes on a PR — verdict comment and
 * check, the no-report and caps-refused texts, the stale mark, the `/tandem merge` comment, the
 * Actions hand-off check and the JSON report — rendered for each page through core's rule
 * (`core/page-privacy.ts`) names nothing more private than the page: no repository, PR, SHA, test
 * name or merge commit of it.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import type { Refusal } from '../../src/core/linked-set.ts';
import {
  itemRank,
  mayShow,
  pageRank,
  pageSees,
  setForPage,
  statusForPage,
} from '../../src/core/page-privacy.ts';
import type { PullInfo } from '../../src/core/pull-request.schema.ts';
import type { RepoVisibility } from '../../src/core/repo-visibility.ts';
import {
  type LinkedChangeView,
  renderHandoffProgress,
  renderLinkedChangeCheck,
  renderLinkedChangeComment,
  renderNoReport,
  renderRefused,
} from '../../src/report/linked-change.ts';
import { type MergeStatus, renderMergeStatus } from '../../src/report/merge-command-status.ts';
import { renderStickyComment } from '../../src/report/sticky-comment-state.ts';
import { seededRandom } from '../helpers/seeded-random.ts';
import { stubReport } from '../support/stub-executor.ts';

const prng = seededRandom;

const sha = (s: string) => createHash('sha1').update(s).digest('hex');
const VISIBILITIES: RepoVisibility[] = ['public', 'internal', 'private'];

interface Pr {
  key: string;
  repo: string;
  visibility: RepoVisibility;
  info: PullInfo;
  mergeSha: string;
}

function world(seed: number) {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const repos = Array.from({ length: 3 + Math.floor(rand() * 4) }, (_, i) => ({
    repo: `acme/r${seed}x${i}`,
    visibility: pick(VISIBILITIES),
  }));
  const prs: Pr[] = Array.from({ length: 4 + Math.floor(rand() * 6) }, (_, i) => {
    const { repo, visibility } = pick(repos);
    const number = 100 + i;
    const key = `${repo}#${number}`;
    const [owner, name] = repo.split('/') as [string, string];
    return {
      key,
      repo,
      visibility,
      mergeSha: sha(`merge ${key}`),
      info: {
        ref: { owner, repo: name, number },
        state: 'open',
        title: `change ${key}`,
        body: null,
        headSha: sha(`head ${key}`),
        headRef: `feature-${seed}`,
        baseSha: sha(`base ${key}`),
        baseRef: 'main',
        repo,
        htmlUrl: `https://github.com/${repo}/pull/${number}`,
        cloneUrl: `https://github.com/${repo}.git`,
        visibility,
      },
    };
  });
  const rankOf = (k: string) =>
    itemRank(
      prs.find((p) => p.key === k || p.repo === k)?.visibility ?? repos.find((r) => r.repo === k)?.visibility,
    );
  const refused: Refusal[] = prs.slice(0, 3).flatMap((a) =>
    prs.slice(3).map((b) => ({
      from: a.key,
      to: b.key,
      reason: 'not followed (needs a writer’s confirmation)',
      foreign: rand() < 0.5,
    })),
  );
  const view: LinkedChangeView = {
    members: prs.map((p) => p.info),
    left: prs
      .filter(() => rand() < 0.3)
      .map((p) => ({ key: p.key, state: 'merged' as const, baseRef: 'main' })),
    refused,
    mergeOrder: repos.map((r) => r.repo),
  };
  return { prs, rankOf, view, rand };
}

/** The JSON report of a set resolved from `page`: its targets are what resolve-set let in. */
function reportFor(all: readonly Pr[]) {
  const prs = all.filter((p, i) => all.findIndex((q) => q.repo === p.repo) === i);
  const spec = {
    evaluationId: 1,
    name: `linked change ${prs.map((p) => p.key).join(', ')}`,
    targets: prs.map((p) => ({
      repo: p.repo,
      url: p.info.cloneUrl,
      base: p.info.baseSha,
      head: p.info.headSha,
    })),
    context: [],
    suite: { name: 'checkout', image: 'tandem/sandbox:node20' },
    matrix: 'full',
  } as unknown as LinkedChangeSpec;
  const json = JSON.stringify(stubReport(spec)).replaceAll(
    'joint::works',
    `joint::works for ${prs.map((p) => p.repo).join(' ')}`,
  );
  return JSON.parse(json) as ReturnType<typeof stubReport>;
}

/** Every text the App writes on `page`'s PR, rendered the way the App composes it. */
function textsOn(page: Pr, w: ReturnType<typeof world>): string[] {
  const sees = pageSees(pageRank(page.visibility), w.rankOf);
  const view = setForPage(w.view, sees);
  // The report covers the set as resolved from a seed as private as the page: members it may see.
  const visible = w.prs.filter((p) => sees(p.key));
  const report = reportFor(visible);
  const comment = renderLinkedChangeComment(view, report, 'names');
  const check = renderLinkedChangeCheck(view, report, 'names');
  const failure = renderNoReport(view, 'the engine could not be reached', 'infrastructure');
  const suite = renderNoReport(view, 'suite.yml is invalid', 'suite');
  const capped = renderRefused(view, 'the linked change already has 1 members (the limit)');
  const stale = renderStickyComment({
    result: { kind: 'report', view, report, reveal: 'names' },
    pending: { kind: 're-evaluating', view },
  });
  const steps = w.prs.map((p, i) => ({
    key: p.key,
    headSha: p.info.headSha,
    result: i % 2 === 0 ? ('merged' as const) : ('refused' as const),
    ...(i % 2 === 0 ? { mergeSha: p.mergeSha } : { reason: `${p.key} is blocked by its branch rules` }),
  }));
  const status: MergeStatus = {
    outcome: 'partial',
    requestedBy: 'alice',
    steps,
    reasons: w.prs.map((p) => `${p.key} joined the linked change after its evaluation`),
    notes: [`the Depends-On links of ${w.prs.map((p) => p.key).join(', ')} form a cycle`],
  };
  const merge = renderMergeStatus(
    statusForPage(
      status,
      sees,
      w.prs.map((p) => p.key),
    ),
  );
  const handoff = renderHandoffProgress({
    workflow: 'tandem.yml',
    evaluator: 'acme/tandem-suites',
    members: view.members.map((m) => `${m.repo}#${m.ref.number}`),
  });
  return [
    comment,
    JSON.stringify(check),
    JSON.stringify(failure),
    JSON.stringify(suite),
    JSON.stringify(capped),
    stale,
    merge,
    JSON.stringify(handoff),
    JSON.stringify(report),
  ];
}

describe('property: a page never names anything more private than itself', () => {
  it('holds for 200 random sets, on every page of every kind of App output', () => {
    let checked = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const w = world(seed);
      for (const page of w.prs) {
        const texts = textsOn(page, w).join('\n');
        for (const other of w.prs) {
          if (mayShow(pageRank(page.visibility), itemRank(other.visibility))) continue;
          // The other repository is more private than the page: none of its identifiers shows.
          for (const secret of [
            other.repo,
            other.key,
            other.info.headSha.slice(0, 7),
            other.mergeSha.slice(0, 7),
          ])
            expect(texts.includes(secret), `${secret} on ${page.key} (seed ${seed})`).toBe(false);
          checked += 1;
        }
      }
    }
    // The property was exercised, not vacuously true.
    expect(checked).toBeGreaterThan(500);
  });

  it('what a page may see is still shown', () => {
    const w = world(7);
    for (const page of w.prs) {
      const texts = textsOn(page, w).join('\n');
      expect(texts).toContain(page.repo);
    }
  });
});
