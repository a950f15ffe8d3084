/**
 * The App benches' shared scenario (perf/app-bench.ts: one App on its embedded store;
 * perf/replicas-bench.ts: replicas on PostgreSQL with a worker pool): the organization `acme`
 * on the GitHub stand-in with N linked sets (set i: a#i+1 and b#i+1, and c#… for every other
 * set, linked both ways), its tandem.yml, the four bursts of signed deliveries (opens, pushes,
 * link edits, `/tandem run`), and what is counted at the end: lost, duplicated and orphaned
 * checks and comments. Each delivery is prepared once (the stand-in changed, the payload taken)
 * and can go to several App processes with the same delivery id and the same body, as GitHub's
 * one delivery reaches two replicas behind a load balancer that retries.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { StandIn } from '../test/support/github-standin/index.ts';
import type { createWebhookSender } from '../test/support/webhook-sender.ts';

export type WebhookSender = ReturnType<typeof createWebhookSender>;
type Json = Record<string, unknown>;
export type Pull = { repo: string; number: number };

/** One GitHub delivery: sent to each of `to` at once (same id, same body); their HTTP statuses. */
export interface ScenarioDelivery {
  id: string;
  send(to: readonly WebhookSender[]): Promise<number[]>;
}

export const REPOS = ['a', 'b', 'c'] as const;
const MARKER = '<!-- tandem:linked-change -->';

export interface ScenarioOptions {
  sets: number;
  /** `workers`: the organization's configurations run on `tandem worker` processes. */
  executor?: 'local' | 'workers';
}

export interface AppScenario {
  pulls: Pull[];
  /** Opens, pushes (every PR's final head), link edits, `/tandem run`: one delivery per PR each. */
  bursts: ScenarioDelivery[][];
  headOf(p: Pull): string;
  /** PRs whose final head has a completed `Tandem` check. */
  checksCompleted(): number;
  /** PRs whose sticky comment names their final head. */
  commentsUpToDate(): number;
  /** A PR without a completed check on its final head, with every Tandem check of its repository (for logs). */
  firstMissing(): string | undefined;
  outcome(): {
    lost: { checks: number; comments: number };
    duplicated: { checks: number; comments: number };
    orphaned: { checks: number };
    finalConclusions: Record<string, number>;
  };
}

/** Seeds the stand-in (repositories, permissions, tandem.yml, the suite, every PR) and builds the bursts. */
export function seedAppScenario(standIn: StandIn, opts: ScenarioOptions): AppScenario {
  for (const name of [...REPOS, '.github']) standIn.addRepo({ owner: 'acme', name });
  standIn.addRepo({ owner: 'acme', name: 'suites', private: true });
  for (const r of REPOS) standIn.setPermission('acme', r, 'octocat', 'write');
  standIn.setFile(
    'acme',
    '.github',
    '.github/tandem.yml',
    `evaluator: acme/suites\n${opts.executor === 'workers' ? 'executor: workers\n' : ''}suites:\n  - name: s\n    repos: [acme/a, acme/b, acme/c]\n    path: s/suite.yml\nmatrix: leave-one-out\n`,
  );
  standIn.setFile(
    'acme',
    'suites',
    's/suite.yml',
    'name: s\nimage: tandem/sandbox:node20\ntests:\n  - name: t\n    files: [hidden/t.js]\n    run: node t.js\n    results: { format: junit, path: t.xml }\n',
  );
  standIn.setFile('acme', 'suites', 's/hidden/t.js', 'test\n');

  let shaSeq = 0;
  const sha = () => createHash('sha1').update(`bench ${++shaSeq}`).digest('hex');
  const pulls: Pull[] = [];
  let cNumber = 0;
  for (let i = 0; i < opts.sets; i++) {
    const members = [
      { repo: 'a', number: i + 1 },
      { repo: 'b', number: i + 1 },
      ...(i % 2 === 0 ? [{ repo: 'c', number: ++cNumber }] : []),
    ];
    for (const m of members) {
      const others = members.filter((o) => o !== m).map((o) => `Depends-On: acme/${o.repo}#${o.number}`);
      standIn.addPullRequest({
        owner: 'acme',
        repo: m.repo,
        number: m.number,
        title: `set ${i}`,
        body: others.join('\n'),
        headRef: `set-${i}`,
        headSha: sha(),
        baseSha: 'f'.repeat(40),
      });
      pulls.push(m);
    }
  }

  const installationId = standIn.installationId('acme');
  // Snapshots: every send of one delivery serialises the same objects, so the bodies are equal.
  const pr = (p: Pull) => structuredClone(standIn.pullRequest('acme', p.repo, p.number)) as unknown as Json;
  const repository = (p: Pull) => structuredClone(standIn.repository('acme', p.repo)) as unknown as Json;
  /** `prepare` runs once, at the first send; every send after reuses what it took. */
  const delivery = (
    prepare: () => (s: WebhookSender, deliveryId: string) => Promise<{ status: number }>,
  ): ScenarioDelivery => {
    const id = randomUUID();
    let sendOne: ReturnType<typeof prepare> | undefined;
    return {
      id,
      async send(to) {
        sendOne ??= prepare();
        const one = sendOne;
        return Promise.all(to.map((s) => one(s, id).then((r) => r.status)));
      },
    };
  };
  const opened = (p: Pull) =>
    delivery(() => {
      const input = { pullRequest: pr(p), repository: repository(p), installationId };
      return (s, deliveryId) => s.pullRequest('opened', input, { deliveryId });
    });
  const pushed = (p: Pull) =>
    delivery(() => {
      standIn.updatePullRequest('acme', p.repo, p.number, { headSha: sha() });
      const input = { pullRequest: pr(p), repository: repository(p), installationId };
      return (s, deliveryId) => s.pullRequest('synchronize', input, { deliveryId });
    });
  const edited = (p: Pull) =>
    delivery(() => {
      const input = {
        pullRequest: pr(p),
        repository: repository(p),
        installationId,
        changes: { body: { from: '' } },
      };
      return (s, deliveryId) => s.pullRequest('edited', input, { deliveryId });
    });
  const rerun = (p: Pull) =>
    delivery(() => {
      const comment = standIn.addComment('acme', p.repo, p.number, {
        body: '/tandem run',
        user: 'octocat',
      }) as unknown as Json;
      const input = { pullRequest: pr(p), repository: repository(p), comment, installationId };
      return (s, deliveryId) => s.issueCommentCreated(input, { deliveryId });
    });

  const headOf = (p: Pull) => (standIn.pullRequest('acme', p.repo, p.number).head as Json).sha as string;
  const checksOf = (p: Pull, head: string) =>
    standIn.checkRuns('acme', p.repo, head).filter((c) => c.name === 'Tandem');
  const stickies = (p: Pull) =>
    standIn.comments('acme', p.repo, p.number).filter((c) => c.body?.includes(MARKER));
  const checked = (p: Pull) => checksOf(p, headOf(p)).some((c) => c.status === 'completed');
  const commented = (p: Pull) => stickies(p).some((c) => c.body?.includes(headOf(p).slice(0, 7)));
  // The counts a bench polls, from the stand-in's records in one pass each: the stand-in answers
  // the Apps on this same thread, so building GitHub's shapes per PR on every poll would slow
  // GitHub down for them and measure the bench, not the App.
  const { state } = standIn;
  const heads = () => {
    const m = new Map<string, string>();
    for (const r of state.pulls) if (r.owner === 'acme') m.set(`${r.repo}#${r.number}`, r.headSha);
    return m;
  };
  const checksCompleted = () => {
    const done = new Set<string>();
    for (const c of state.checkRunList)
      if (c.name === 'Tandem' && c.status === 'completed') done.add(`${c.repo}@${c.headSha}`);
    const head = heads();
    return pulls.filter((p) => done.has(`${p.repo}@${head.get(`${p.repo}#${p.number}`)}`)).length;
  };
  const commentsUpToDate = () => {
    const bodies = new Map<string, string[]>();
    for (const c of state.commentList)
      if (c.body.includes(MARKER))
        bodies.set(`${c.repo}#${c.issueNumber}`, [
          ...(bodies.get(`${c.repo}#${c.issueNumber}`) ?? []),
          c.body,
        ]);
    const head = heads();
    return pulls.filter((p) => {
      const key = `${p.repo}#${p.number}`;
      const short = head.get(key)?.slice(0, 7) ?? '-';
      return (bodies.get(key) ?? []).some((b) => b.includes(short));
    }).length;
  };
  return {
    pulls,
    bursts: [pulls.map(opened), pulls.map(pushed), pulls.map(edited), pulls.map(rerun)],
    headOf,
    checksCompleted,
    commentsUpToDate,
    firstMissing() {
      const p = pulls.find((x) => !checked(x));
      if (!p) return undefined;
      const runs = standIn
        .checkRuns('acme', p.repo)
        .map((c) => [c.head_sha.slice(-4), c.status, c.conclusion]);
      return `${p.repo}#${p.number} ${headOf(p)}: ${JSON.stringify(runs)}`;
    },
    outcome() {
      const all = REPOS.flatMap((r) =>
        standIn
          .checkRuns('acme', r)
          .filter((c) => c.name === 'Tandem')
          .map((c) => ({ ...c, key: `${r}@${c.head_sha}` })),
      );
      const perHead = new Map<string, number>();
      for (const c of all) perHead.set(c.key, (perHead.get(c.key) ?? 0) + 1);
      return {
        lost: {
          checks: pulls.filter((p) => !checked(p)).length,
          comments: pulls.filter((p) => !commented(p)).length,
        },
        duplicated: {
          checks: [...perHead.values()].filter((n) => n > 1).length,
          comments: pulls.filter((p) => stickies(p).length > 1).length,
        },
        orphaned: { checks: all.filter((c) => c.status !== 'completed').length },
        // A completed check is not yet a verdict: an evaluation that failed (infrastructure)
        // completes its checks too. Every final head's last check, by its conclusion.
        finalConclusions: Object.fromEntries(
          [
            ...pulls
              .map(
                (p) =>
                  checksOf(p, headOf(p))
                    .filter((c) => c.status === 'completed')
                    .at(-1)?.conclusion,
              )
              .reduce(
                (m, c) => m.set(String(c ?? 'none'), (m.get(String(c ?? 'none')) ?? 0) + 1),
                new Map<string, number>(),
              ),
          ].sort(),
        ),
      };
    },
  };
}
