/**
 * A repository's history as mining reads it from GitHub, each answer checked with zod for the
 * fields relied on: an organization's repositories, merged pull requests in a date range (paged
 * back by update time, stopping once older than the range), a PR's commits and changed files
 * (with their patches), an issue, and the PRs an issue's timeline says referred to it.
 */
import { z } from 'zod';
import { pullKey } from '../core/pull-ref.ts';
import { splitRepo } from '../core/repo-name.ts';
import { httpStatus } from './octokit.ts';
import type { TokenOctokit } from './token-client.ts';

type GitHub = TokenOctokit;

const repoSchema = z.object({
  full_name: z.string(),
  clone_url: z.string(),
  archived: z.boolean().optional(),
});

const pullSchema = z.object({
  number: z.number().int(),
  title: z.string(),
  body: z.string().nullish(),
  html_url: z.string(),
  updated_at: z.string(),
  merged_at: z.string().nullish(),
  merge_commit_sha: z.string().nullish(),
  head: z.object({ ref: z.string(), sha: z.string() }),
  base: z.object({ ref: z.string(), sha: z.string() }),
});

const commitSchema = z.object({
  sha: z.string(),
  html_url: z.string().optional(),
  commit: z.object({ message: z.string() }),
  parents: z.array(z.object({ sha: z.string() })),
});

const issueSchema = z.object({
  number: z.number().int(),
  title: z.string(),
  body: z.string().nullish(),
  html_url: z.string(),
  pull_request: z.object({}).loose().optional(),
});

const timelineEventSchema = z
  .object({
    event: z.string().optional(),
    source: z
      .object({
        issue: z
          .object({
            number: z.number().int(),
            repository_url: z.string(),
            pull_request: z.object({}).loose().optional(),
          })
          .loose()
          .optional(),
      })
      .loose()
      .optional(),
  })
  .loose();

const pullFileSchema = z.object({
  filename: z.string(),
  status: z.string(),
  patch: z.string().optional(),
});

export type MergedPull = z.infer<typeof pullSchema> & { repo: string; mergedAt: number };
export type PullCommit = z.infer<typeof commitSchema>;
export type Issue = z.infer<typeof issueSchema>;

export async function orgRepositories(
  gh: GitHub,
  org: string,
): Promise<Array<{ repo: string; cloneUrl: string }>> {
  const rows = await gh.paginate('GET /orgs/{org}/repos', { org, per_page: 100, type: 'all' });
  return z
    .array(repoSchema)
    .parse(rows)
    .filter((r) => !r.archived)
    .map((r) => ({ repo: r.full_name, cloneUrl: r.clone_url }));
}

export async function repositoryCloneUrl(gh: GitHub, repo: string): Promise<string> {
  const parts = splitRepo(repo)!;
  const { data } = await gh.request('GET /repos/{owner}/{repo}', { owner: parts.owner, repo: parts.repo });
  return repoSchema.parse(data).clone_url;
}

/** Merged PRs of `repo` merged within [since, until), newest update first, paged lazily. */
export async function mergedPulls(
  gh: GitHub,
  repo: string,
  range: { since: Date; until?: Date },
  onPage?: (scanned: number) => void,
): Promise<MergedPull[]> {
  const parts = splitRepo(repo)!;
  const out: MergedPull[] = [];
  const pages = gh.paginate.iterator('GET /repos/{owner}/{repo}/pulls', {
    ...parts,
    state: 'closed',
    sort: 'updated',
    direction: 'desc',
    per_page: 100,
  });
  for await (const page of pages) {
    const pulls = z.array(pullSchema).parse(page.data);
    onPage?.(pulls.length);
    for (const p of pulls) {
      if (!p.merged_at) continue;
      const at = Date.parse(p.merged_at);
      if (at >= range.since.getTime() && (!range.until || at < range.until.getTime()))
        out.push({ ...p, repo, mergedAt: at });
    }
    // Sorted by last update: once a whole page is older than the range, nothing later is in it.
    const last = pulls.at(-1);
    if (!last || Date.parse(last.updated_at) < range.since.getTime()) break;
  }
  return out;
}

export async function pullCommits(gh: GitHub, repo: string, number: number): Promise<PullCommit[]> {
  const rows = await gh.paginate('GET /repos/{owner}/{repo}/pulls/{pull_number}/commits', {
    ...splitRepo(repo)!,
    pull_number: number,
    per_page: 100,
  });
  return z.array(commitSchema).parse(rows);
}

/** The files a PR changed, each with its diff hunks when GitHub gives them (not for binaries or huge files). */
export async function pullFiles(
  gh: GitHub,
  repo: string,
  number: number,
): Promise<Array<z.infer<typeof pullFileSchema>>> {
  const rows = await gh.paginate('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', {
    ...splitRepo(repo)!,
    pull_number: number,
    per_page: 100,
  });
  return z.array(pullFileSchema).parse(rows);
}

/** The issue (or PR) `owner/name#N`; undefined when it does not exist or cannot be read. */
export async function readIssue(gh: GitHub, key: string): Promise<Issue | undefined> {
  const hash = key.lastIndexOf('#');
  const parts = splitRepo(key.slice(0, hash));
  if (!parts) return undefined;
  try {
    const { data } = await gh.request('GET /repos/{owner}/{repo}/issues/{issue_number}', {
      ...parts,
      issue_number: Number(key.slice(hash + 1)),
    });
    return issueSchema.parse(data);
  } catch (e) {
    const s = httpStatus(e);
    if (s === 404 || s === 403 || s === 410) return undefined;
    throw e;
  }
}

/** A merged PR `owner/name#N`, or undefined when it is not merged or cannot be read. */
export async function readMergedPull(gh: GitHub, key: string): Promise<MergedPull | undefined> {
  const hash = key.lastIndexOf('#');
  const repo = key.slice(0, hash);
  try {
    const { data } = await gh.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', {
      ...splitRepo(repo)!,
      pull_number: Number(key.slice(hash + 1)),
    });
    const p = pullSchema.parse(data);
    return p.merged_at ? { ...p, repo, mergedAt: Date.parse(p.merged_at) } : undefined;
  } catch (e) {
    const s = httpStatus(e);
    if (s === 404 || s === 403) return undefined;
    throw e;
  }
}

/**
 * Keys of the pull requests whose `cross-referenced` timeline events name issue `key`; none when
 * GitHub keeps no timeline for it (404, 410: a deleted or transferred issue).
 */
export async function referencingPulls(gh: GitHub, key: string): Promise<string[]> {
  const hash = key.lastIndexOf('#');
  const parts = splitRepo(key.slice(0, hash))!;
  let rows: unknown[];
  try {
    rows = await gh.paginate('GET /repos/{owner}/{repo}/issues/{issue_number}/timeline', {
      ...parts,
      issue_number: Number(key.slice(hash + 1)),
      per_page: 100,
    });
  } catch (e) {
    const s = httpStatus(e);
    if (s === 404 || s === 410) return [];
    throw e;
  }
  const out: string[] = [];
  for (const e of z.array(timelineEventSchema).parse(rows)) {
    const issue = e.source?.issue;
    if (e.event !== 'cross-referenced' || !issue?.pull_request) continue;
    const m = /\/repos\/([^/]+)\/([^/]+)$/.exec(issue.repository_url);
    if (m) out.push(pullKey({ owner: m[1]!, repo: m[2]!, number: issue.number }));
  }
  return out;
}
