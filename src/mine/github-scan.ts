/**
 * Reading an organization's merged pull requests for mining: per PR its commits (their messages
 * are cues), its changed files (their patches give the coupling facts), its text cues; then the
 * issues the PRs name — their text for the problem statement, and the PRs that point back at
 * them, from the issue's timeline and, where the timeline names no other PR, from search. A PR
 * found that way outside the date range is read too when it was merged within the window of the
 * PR naming the issue, in a repository being mined.
 */
import { pullKey, repoOfPullKey } from '../core/pull-ref.ts';
import { RepoSet, sameRepo, splitRepo } from '../core/repo-name.ts';
import {
  type Issue,
  type MergedPull,
  mergedPulls,
  pullCommits,
  pullFiles,
  readIssue,
  readMergedPull,
  referencingPulls,
} from '../github/history-reads.ts';
import { reading } from '../github/read-errors.ts';
import { searchReferencingPulls } from '../github/release-reads.ts';
import type { GitHubApi } from '../github/token-client.ts';
import { type ChangeFacts, changeFacts } from './change-facts.ts';
import { type Cue, cuesInPullRequest } from './cues.ts';
import { hunkLines } from './diff-lines.ts';

export interface ScannedPull {
  pull: MergedPull;
  key: string;
  commits: Array<{ sha: string; message: string; url?: string }>;
  cues: Cue[];
  facts: ChangeFacts;
}

async function scanPull(api: GitHubApi, pull: MergedPull): Promise<ScannedPull> {
  const gh = api.octokit;
  const parts = splitRepo(pull.repo)!;
  const label = `${pull.repo}#${pull.number}`;
  const read = await reading(api, `commits of ${label}`, () => pullCommits(gh, pull.repo, pull.number));
  const files = await reading(api, `files of ${label}`, () => pullFiles(gh, pull.repo, pull.number));
  const commits = read.map((c) => ({
    sha: c.sha,
    message: c.commit.message,
    ...(c.html_url ? { url: c.html_url } : {}),
  }));
  const cues = cuesInPullRequest(
    { ...parts, number: pull.number, title: pull.title, body: pull.body ?? null },
    commits.map((c) => c.message),
  );
  // GitHub's `patch` is the file's hunks without the `diff --git` header.
  const diffs = files.map((f) => ({ path: f.filename, ...hunkLines(f.patch ?? '') }));
  return { pull, key: pullKey({ ...parts, number: pull.number }), commits, cues, facts: changeFacts(diffs) };
}

export async function scanPulls(
  api: GitHubApi,
  repo: string,
  range: { since: Date; until?: Date },
  onPage: (scanned: number) => void,
): Promise<ScannedPull[]> {
  const pulls = await reading(api, `merged pull requests of ${repo}`, () =>
    mergedPulls(api.octokit, repo, range, onPage),
  );
  const out: ScannedPull[] = [];
  for (const pull of pulls) out.push(await scanPull(api, pull));
  return out;
}

/**
 * The organization's issues the scanned PRs name (not PRs themselves), read; PRs that point back
 * at one gain the cue (`timeline:` or `search:` in its text). Returns the issues, and adds PRs
 * found outside the date range to `scanned`.
 */
export async function readNamedIssues(
  api: GitHubApi,
  opts: { org: string; repos: readonly string[]; windowMs: number },
  scanned: Map<string, ScannedPull>,
): Promise<{ issues: Map<string, Issue>; reverse: number }> {
  const gh = api.octokit;
  const mined = new RepoSet(opts.repos);
  const issues = new Map<string, Issue>();
  let reverse = 0;
  const targets = new Set([...scanned.values()].flatMap((s) => s.cues.map((c) => c.target)));
  const adopt = async (from: string, target: string, how: 'timeline' | 'search', near: number) => {
    let s = scanned.get(from);
    if (!s) {
      if (!mined.has(repoOfPullKey(from))) return;
      const pull = await reading(api, `pull request ${from}`, () => readMergedPull(gh, from));
      if (!pull || Math.abs(pull.mergedAt - near) > opts.windowMs) return;
      s = await scanPull(api, pull);
      scanned.set(s.key, s);
      reverse++;
    }
    if (!s.cues.some((c) => c.target === target))
      s.cues.push({ kind: 'reference', target, text: `${how}: referenced ${target}` });
  };
  for (const target of targets) {
    // Only the organization's own issues: others are outside what the token is for.
    if (scanned.has(target) || !sameRepo(target.split('/')[0]!, opts.org)) continue;
    const issue = await reading(api, `issue ${target}`, () => readIssue(gh, target));
    if (!issue || issue.pull_request) continue;
    issues.set(target, issue);
    const naming = () => [...scanned.values()].filter((s) => s.cues.some((c) => c.target === target));
    const near = Math.max(...naming().map((s) => s.pull.mergedAt));
    for (const from of await reading(api, `timeline of ${target}`, () => referencingPulls(gh, target)))
      await adopt(from, target, 'timeline', near);
    // One PR alone is no set: search for the others the timeline missed.
    if (naming().length < 2)
      for (const from of await reading(api, `search for ${target}`, () =>
        searchReferencingPulls(gh, opts.org, target),
      ))
        await adopt(from, target, 'search', near);
  }
  return { issues, reverse };
}
