/**
 * What mining reads from GitHub about versions and packages, each answer checked with zod:
 * releases (newest first, paged back until older than a date), tags (the newest 100), the
 * manifests at the root of the default branch, and the merged PRs a search finds naming an issue
 * (the reverse links an issue's timeline can miss).
 */
import { z } from 'zod';
import { manifestEcosystem } from '../core/dependency-manifests.ts';
import { pullKey } from '../core/pull-ref.ts';
import { splitRepo } from '../core/repo-name.ts';
import { httpStatus } from './octokit.ts';
import type { TokenOctokit } from './token-client.ts';

type GitHub = TokenOctokit;

const releaseSchema = z.object({
  tag_name: z.string(),
  target_commitish: z.string(),
  published_at: z.string().nullish(),
  created_at: z.string(),
  draft: z.boolean().optional(),
});
const tagSchema = z.object({ name: z.string(), commit: z.object({ sha: z.string() }) });
const entrySchema = z.object({ name: z.string(), path: z.string(), type: z.string() });
const fileSchema = z.object({
  type: z.literal('file'),
  content: z.string(),
  encoding: z.string().optional(),
});

export interface Release {
  tag: string;
  target: string;
  at: number;
}

export async function releasesSince(gh: GitHub, repo: string, since: Date): Promise<Release[]> {
  const out: Release[] = [];
  const pages = gh.paginate.iterator('GET /repos/{owner}/{repo}/releases', {
    ...splitRepo(repo)!,
    per_page: 100,
  });
  for await (const page of pages) {
    const rows = z.array(releaseSchema).parse(page.data);
    for (const r of rows) {
      if (r.draft) continue;
      const at = Date.parse(r.published_at ?? r.created_at);
      if (at >= since.getTime()) out.push({ tag: r.tag_name, target: r.target_commitish, at });
    }
    const last = rows.at(-1);
    if (!last || Date.parse(last.published_at ?? last.created_at) < since.getTime()) break;
  }
  return out;
}

/** The newest tags (one page): what a release made recently is among them. */
export async function recentTags(gh: GitHub, repo: string): Promise<Array<{ name: string; sha: string }>> {
  const { data } = await gh.request('GET /repos/{owner}/{repo}/tags', { ...splitRepo(repo)!, per_page: 100 });
  return z
    .array(tagSchema)
    .parse(data)
    .map((t) => ({ name: t.name, sha: t.commit.sha }));
}

/** Manifests (package.json, go.mod, pyproject.toml, …) at the root of the default branch. */
export async function rootManifests(
  gh: GitHub,
  repo: string,
): Promise<Array<{ path: string; text: string }>> {
  const parts = splitRepo(repo)!;
  let listed: unknown;
  try {
    ({ data: listed } = await gh.request('GET /repos/{owner}/{repo}/contents/{path}', {
      ...parts,
      path: '',
    }));
  } catch (e) {
    if (httpStatus(e) === 404) return []; // an empty repository
    throw e;
  }
  const entries = z.array(entrySchema).catch([]).parse(listed);
  const out: Array<{ path: string; text: string }> = [];
  for (const e of entries.filter((x) => x.type === 'file' && manifestEcosystem(x.path))) {
    const { data } = await gh.request('GET /repos/{owner}/{repo}/contents/{path}', {
      ...parts,
      path: e.path,
    });
    const file = fileSchema.safeParse(data);
    if (file.success)
      out.push({ path: e.path, text: Buffer.from(file.data.content, 'base64').toString('utf8') });
  }
  return out;
}

const searchSchema = z.object({
  items: z.array(
    z.object({
      number: z.number().int(),
      repository_url: z.string(),
      pull_request: z.object({}).loose().optional(),
    }),
  ),
});

/**
 * Merged PRs of the organization whose title or body names issue `key` (`owner/repo#N` or its
 * URL path). Best effort: a refused query (422, 403) finds nothing.
 */
export async function searchReferencingPulls(gh: GitHub, org: string, key: string): Promise<string[]> {
  const hash = key.lastIndexOf('#');
  const repo = key.slice(0, hash);
  const n = key.slice(hash + 1);
  const q = `"${repo}#${n}" OR "${repo}/issues/${n}" org:${org} is:pr is:merged in:title,body`;
  try {
    const { data } = await gh.request('GET /search/issues', { q, per_page: 100 });
    const out: string[] = [];
    for (const item of searchSchema.parse(data).items) {
      const m = /\/repos\/([^/]+)\/([^/]+)$/.exec(item.repository_url);
      if (m && item.pull_request) out.push(pullKey({ owner: m[1]!, repo: m[2]!, number: item.number }));
    }
    return out;
  } catch (e) {
    const s = httpStatus(e);
    if (s === 422 || s === 403) return [];
    throw e;
  }
}
