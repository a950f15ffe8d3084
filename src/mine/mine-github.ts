/**
 * `tandem mine github`: cross-repository tasks from an organization's merged pull requests.
 * Each merged PR is a change; its cues come from its title, body and commits; issues it names
 * are read (their title and body become the problem statement) and their timelines add the PRs
 * that referred to them elsewhere; same-named head branches merged within the window link too.
 * Each side's commits come from the repository's mirror: the merge commit on the base branch
 * when the mirror has it, else the PR head on its merge base.
 */
import { cloneUrlWithToken } from '../core/credentials.ts';
import { pullKey } from '../core/pull-ref.ts';
import { RepoMap, sameRepo, splitRepo } from '../core/repo-name.ts';
import { git, gitOut } from '../engine/git/git.ts';
import { MirrorCache } from '../engine/git/git-mirror.ts';
import type { SetDescription } from './candidate.ts';
import { type Cue, cuesInPullRequest } from './cues.ts';
import { miningClient } from './github-client.ts';
import { reading } from './github-errors.ts';
import {
  type Issue,
  type MergedPull,
  mergedPulls,
  orgRepositories,
  pullCommits,
  readIssue,
  referencingPulls,
  repositoryCloneUrl,
} from './github-reads.ts';
import type { LinkedComponent, LinkUnit } from './link-graph.ts';
import { MineOutput } from './mine-output.ts';
import type { MineProgress } from './mine-progress.ts';
import type { ChangeStep } from './repo-change.ts';
import { forEachLinkedSet, type MineSettings, processSet, type SideInput } from './set-pipeline.ts';

export interface MineGitHubOptions {
  org: string;
  repos?: string[];
  since: Date;
  until?: Date;
  windowMs: number;
  token: string;
  apiUrl?: string;
  cacheDir: string;
  out: string;
  screenedOut?: string;
  settings: Omit<MineSettings, 'scratchRoot'>;
  onProgress?: (p: MineProgress) => void;
}

export interface MineGitHubResult {
  output: MineOutput;
  pullsScanned: number;
  apiRequests: number;
  rateLimits: number;
}

interface Scanned {
  pull: MergedPull;
  key: string;
  commits: Array<{ sha: string; message: string; url?: string }>;
  cues: Cue[];
}

export async function mineGitHub(opts: MineGitHubOptions): Promise<MineGitHubResult> {
  const client = miningClient({ token: opts.token, ...(opts.apiUrl ? { apiUrl: opts.apiUrl } : {}) });
  const { gh } = client;
  const output = new MineOutput(opts.out, opts.screenedOut);
  const repos = opts.repos
    ? await Promise.all(
        opts.repos.map(async (repo) => ({
          repo,
          cloneUrl: await reading(`--repo ${repo}`, () => repositoryCloneUrl(gh, repo), { userNamed: true }),
        })),
      )
    : await reading(`--org ${opts.org}`, () => orgRepositories(gh, opts.org), { userNamed: true });
  const progress = { repos: 0, reposTotal: repos.length, pulls: 0, stage: 'pull requests' };
  const report = () => opts.onProgress?.({ ...progress });

  const scanned = new Map<string, Scanned>();
  for (const { repo } of repos) {
    const parts = splitRepo(repo)!;
    const pulls = await reading(`merged pull requests of ${repo}`, () =>
      mergedPulls(gh, repo, opts, (n) => {
        progress.pulls += n;
        report();
      }),
    );
    for (const pull of pulls) {
      const read = await reading(`commits of ${repo}#${pull.number}`, () =>
        pullCommits(gh, repo, pull.number),
      );
      const commits = read.map((c) => ({
        sha: c.sha,
        message: c.commit.message,
        ...(c.html_url ? { url: c.html_url } : {}),
      }));
      const key = pullKey({ ...parts, number: pull.number });
      const cues = cuesInPullRequest(
        { ...parts, number: pull.number, title: pull.title, body: pull.body ?? null },
        commits.map((c) => c.message),
      );
      scanned.set(key, { pull, key, commits, cues });
    }
    progress.repos++;
    report();
  }

  // Issues the PRs name (not PRs we scanned): their text, and PRs their timelines point back from.
  progress.stage = 'issues';
  report();
  const issues = new Map<string, Issue>();
  const targets = new Set([...scanned.values()].flatMap((s) => s.cues.map((c) => c.target)));
  for (const target of targets) {
    // Only the organization's own issues: others are outside what the token is for.
    if (scanned.has(target) || !sameRepo(target.split('/')[0]!, opts.org)) continue;
    const issue = await reading(`issue ${target}`, () => readIssue(gh, target));
    if (!issue || issue.pull_request) continue;
    issues.set(target, issue);
    for (const from of await reading(`timeline of ${target}`, () => referencingPulls(gh, target))) {
      const s = scanned.get(from);
      if (s && !s.cues.some((c) => c.target === target))
        s.cues.push({ kind: 'reference', target, text: `timeline: referenced ${target}` });
    }
  }

  progress.stage = 'candidates';
  report();
  const units: LinkUnit[] = [...scanned.values()].map((s) => ({
    id: s.key,
    repo: s.pull.repo,
    ownKeys: [s.key],
    cues: s.cues,
    branch: s.pull.head.ref,
    at: s.pull.mergedAt,
  }));
  const mirrors = new MirrorCache(opts.cacheDir);
  const cloneUrls = new RepoMap<string>();
  for (const r of repos) cloneUrls.set(r.repo, r.cloneUrl);
  await forEachLinkedSet(units, opts, output, async (comp, settings) => {
    const members = comp.units.map((u) => scanned.get(u)!);
    const sides: SideInput[] = [];
    for (const repo of comp.repos) {
      const cloneUrl = cloneUrls.get(repo)!;
      const fetchUrl = cloneUrlWithToken(cloneUrl, opts.token);
      const mirror = await mirrors.ensure(fetchUrl);
      const pulls = members
        .filter((m) => sameRepo(m.pull.repo, repo))
        .sort((a, b) => a.pull.mergedAt - b.pull.mergedAt);
      const steps: ChangeStep[] = [];
      for (const m of pulls) steps.push(await stepOf(mirrors, fetchUrl, mirror, m.pull));
      sides.push({ repo, url: cloneUrl, mirror, steps });
    }
    await processSet(sides, describe(members, issues, comp), comp.units, settings, output);
  });
  await output.write();
  return {
    output,
    pullsScanned: progress.pulls,
    apiRequests: client.requests,
    rateLimits: client.rateLimits,
  };
}

/** A merged PR as a step of its side: its merge commit when the mirror has it, else its head. */
async function stepOf(
  mirrors: MirrorCache,
  url: string,
  mirror: string,
  pull: MergedPull,
): Promise<ChangeStep> {
  if (pull.merge_commit_sha) {
    const sha = await mirrors.resolve(url, pull.merge_commit_sha).catch(() => undefined);
    const parent = sha
      ? await git(['rev-parse', '--verify', '--quiet', `${sha}^1`], { cwd: mirror, allowFailure: true })
      : undefined;
    if (sha && parent?.code === 0) return { sha, parent: parent.stdout.trim() };
  }
  const head = await mirrors.resolve(url, pull.head.sha);
  const base = await mirrors.resolve(url, pull.base.sha);
  return { sha: head, parent: await gitOut(['merge-base', base, head], { cwd: mirror }) };
}

function describe(members: Scanned[], issues: Map<string, Issue>, comp: LinkedComponent): SetDescription {
  const cues = members.flatMap((m) => m.cues.map((c) => ({ ...c, from: m.key })));
  const named = [...new Set(cues.map((c) => c.target))]
    .filter((t) => issues.has(t))
    .map((t) => issues.get(t)!);
  const fromIssues = named.length > 0;
  const statement = fromIssues
    ? named.map((i) => `${i.title}\n\n${i.body ?? ''}`.trim()).join('\n\n')
    : members.map((m) => `${m.pull.title}\n\n${m.pull.body ?? ''}`.trim()).join('\n\n');
  const own = new Set(members.map((m) => m.key));
  return {
    source: 'github',
    cues,
    sharedBranches: comp.sharedBranches,
    links: comp.links,
    issues: [...new Set(cues.map((c) => c.target))].filter((t) => !own.has(t)),
    tags: {},
    problemStatement: statement,
    needsRewrite: !fromIssues,
    createdAt: new Date(Math.max(...members.map((m) => m.pull.mergedAt))).toISOString(),
    provenance: [
      ...members.map((m) => m.pull.html_url),
      ...named.map((i) => i.html_url),
      ...members.flatMap((m) => m.commits.map((c) => c.url).filter((u): u is string => !!u)),
    ],
  };
}
