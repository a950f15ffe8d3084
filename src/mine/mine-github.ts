/**
 * `tandem mine github`: cross-repository tasks from an organization's merged pull requests,
 * read through the GitHub port (`src/github/`). Each merged PR is a change; its text cues come
 * from its title, body and commits, its coupling facts from its diff (dependency bumps, symbols);
 * releases, tags and version fields place the versions a repository made on its PRs; issues the
 * PRs name are read (their title and body become the problem statement), and their timelines —
 * or search, where the timeline names no other PR — add the PRs that point back at them;
 * same-named head branches merged within the window link too. Each side's commits come from the
 * repository's mirror: the merge commit on the base branch when the mirror has it, else the PR
 * head on its merge base.
 */
import { cloneUrlWithToken } from '../core/credentials.ts';
import { RepoMap, sameRepo } from '../core/repo-name.ts';
import { git, gitOut } from '../engine/git/git.ts';
import { MirrorCache } from '../engine/git/git-mirror.ts';
import { type Issue, type MergedPull, orgRepositories, repositoryCloneUrl } from '../github/history-reads.ts';
import { reading } from '../github/read-errors.ts';
import { createGitHubApi, type GitHubApi } from '../github/token-client.ts';
import type { SetDescription } from './candidate.ts';
import { couplingLinks, type ReleaseMark } from './coupling.ts';
import { readNamedIssues, type ScannedPull, scanPulls } from './github-scan.ts';
import { repoManifests, versionMarks } from './github-versions.ts';
import type { LinkedComponent, LinkUnit } from './link-graph.ts';
import { MineOutput } from './mine-output.ts';
import type { MineProgress } from './mine-progress.ts';
import { packageIndex, type RepoManifests } from './package-index.ts';
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
  /** PRs outside the date range read because an issue's timeline or search pointed at them. */
  reverseLinks: number;
}

/** Past this many waits on one request the limit is reported: something is wrong, not busy. */
const MAX_WAITS = 20;

/** The port's token client, waiting out rate limits (a mining run can afford to) and counting requests. */
function miningApi(opts: MineGitHubOptions): {
  api: GitHubApi;
  counts: { requests: number; rateLimits: number };
} {
  const counts = { requests: 0, rateLimits: 0 };
  const api = createGitHubApi({
    token: opts.token,
    baseUrl: (opts.apiUrl ?? 'https://api.github.com').replace(/\/$/, ''),
    rateLimitRetries: MAX_WAITS,
    onWait: () => {
      counts.rateLimits++;
    },
  });
  api.octokit.hook.before('request', () => {
    counts.requests++;
  });
  return { api, counts };
}

type Api = ReturnType<typeof miningApi>['api'];
type Repos = Array<{ repo: string; cloneUrl: string }>;
interface Progress {
  repos: number;
  reposTotal: number;
  pulls: number;
  stage: string;
}

export async function mineGitHub(opts: MineGitHubOptions): Promise<MineGitHubResult> {
  const { api, counts } = miningApi(opts);
  const output = new MineOutput(opts.out, opts.screenedOut);
  const repos = await listRepos(api, opts);
  const progress: Progress = { repos: 0, reposTotal: repos.length, pulls: 0, stage: 'pull requests' };
  const report = (stage?: string) => {
    if (stage) progress.stage = stage;
    opts.onProgress?.({ ...progress });
  };
  const scanned = await scanRepos(api, repos, opts, progress, report);
  report('issues');
  const { issues, reverse } = await readNamedIssues(
    api,
    { org: opts.org, repos: repos.map((r) => r.repo), windowMs: opts.windowMs },
    scanned,
  );
  report('versions');
  const { coupling, tagsOf } = await versionEvidence(api, repos, scanned, opts);
  report('candidates');
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
  await forEachLinkedSet(units, { ...opts, coupling }, output, async (comp, settings) => {
    const members = comp.units.map((u) => scanned.get(u)!);
    const sides: SideInput[] = [];
    for (const repo of comp.repos)
      sides.push(await sideOf(mirrors, cloneUrls.get(repo)!, repo, members, opts.token));
    await processSet(sides, describe(members, issues, comp, tagsOf), comp.units, settings, output);
  });
  await output.write();
  return {
    output,
    pullsScanned: progress.pulls,
    apiRequests: counts.requests,
    rateLimits: counts.rateLimits,
    reverseLinks: reverse,
  };
}

/** The repositories to mine: those named (`--repo`), else every repository of the organization. */
async function listRepos(api: Api, opts: MineGitHubOptions): Promise<Repos> {
  const gh = api.octokit;
  if (!opts.repos)
    return reading(api, `--org ${opts.org}`, () => orgRepositories(gh, opts.org), { userNamed: true });
  return Promise.all(
    opts.repos.map(async (repo) => ({
      repo,
      cloneUrl: await reading(api, `--repo ${repo}`, () => repositoryCloneUrl(gh, repo), { userNamed: true }),
    })),
  );
}

/** Every repository's merged PRs in the window, with the facts and cues each states. */
async function scanRepos(
  api: Api,
  repos: Repos,
  opts: MineGitHubOptions,
  progress: Progress,
  report: () => void,
): Promise<Map<string, ScannedPull>> {
  const scanned = new Map<string, ScannedPull>();
  for (const { repo } of repos) {
    const pulls = await scanPulls(api, repo, opts, (n) => {
      progress.pulls += n;
      report();
    });
    for (const p of pulls) scanned.set(p.key, p);
    progress.repos++;
    report();
  }
  return scanned;
}

/**
 * Links no text states: each repository's releases and tags placed on its PRs and its manifests,
 * scored into coupling links (dependency bumps, shared symbols); the tags each PR shipped in.
 */
async function versionEvidence(
  api: Api,
  repos: Repos,
  scanned: Map<string, ScannedPull>,
  opts: MineGitHubOptions,
): Promise<{ coupling: ReturnType<typeof couplingLinks>; tagsOf: Map<string, string[]> }> {
  const marks: ReleaseMark[] = [];
  const manifests: RepoManifests[] = [];
  const tagsOf = new Map<string, string[]>();
  const versionsSince = new Date(opts.since.getTime() - opts.windowMs);
  for (const { repo } of repos) {
    const pulls = [...scanned.values()]
      .filter((s) => sameRepo(s.pull.repo, repo))
      .map((s) => ({
        key: s.key,
        mergedAt: s.pull.mergedAt,
        shas: [s.pull.merge_commit_sha, s.pull.head.sha].filter((x): x is string => !!x),
        versions: s.facts.versions,
      }));
    const placed = await reading(api, `releases and tags of ${repo}`, () =>
      versionMarks(api.octokit, repo, pulls, versionsSince),
    );
    marks.push(...placed.marks);
    for (const [k, v] of placed.tagsOf) tagsOf.set(k, v);
    manifests.push(await reading(api, `manifests of ${repo}`, () => repoManifests(api.octokit, repo)));
  }
  const coupling = couplingLinks(
    [...scanned.values()].map((s) => ({
      id: s.key,
      repo: s.pull.repo,
      sha: s.pull.merge_commit_sha ?? s.pull.head.sha,
      at: s.pull.mergedAt,
      facts: s.facts,
    })),
    marks,
    packageIndex(manifests),
    opts.windowMs,
  );
  return { coupling, tagsOf };
}

/** One repository's side of a linked set: its mirror and the set's PRs there, in merge order. */
async function sideOf(
  mirrors: MirrorCache,
  cloneUrl: string,
  repo: string,
  members: readonly ScannedPull[],
  token: string | undefined,
): Promise<SideInput> {
  const fetchUrl = cloneUrlWithToken(cloneUrl, token);
  const mirror = await mirrors.ensure(fetchUrl);
  const pulls = members
    .filter((m) => sameRepo(m.pull.repo, repo))
    .sort((a, b) => a.pull.mergedAt - b.pull.mergedAt);
  const steps: ChangeStep[] = [];
  for (const m of pulls) steps.push(await stepOf(mirrors, fetchUrl, mirror, m.pull));
  return { repo, url: cloneUrl, mirror, steps };
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

function describe(
  members: ScannedPull[],
  issues: Map<string, Issue>,
  comp: LinkedComponent,
  tagsOf: Map<string, string[]>,
): SetDescription {
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
    tags: Object.fromEntries(
      comp.repos
        .map((repo) => [
          repo,
          members.filter((m) => sameRepo(m.pull.repo, repo)).flatMap((m) => tagsOf.get(m.key) ?? []),
        ])
        .filter(([, t]) => t!.length > 0),
    ),
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
