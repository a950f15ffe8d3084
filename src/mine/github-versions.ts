/**
 * The versions a repository made, as GitHub shows them, placed on its merged PRs: a release (its
 * tag's commit, else the last PR merged before it was published), a tag on a PR's merge commit,
 * or a version field a PR's diff set. Also the repository's root manifests, for who publishes
 * which package.
 */

import { versionOfTag } from '../core/version-ranges.ts';
import { recentTags, releasesSince, rootManifests } from '../github/release-reads.ts';
import type { TokenOctokit } from '../github/token-client.ts';
import type { ReleaseMark } from './coupling.ts';
import type { RepoManifests } from './package-index.ts';

export interface VersionedPull {
  key: string;
  mergedAt: number;
  /** The merge commit and the head: a tag or release may point at either. */
  shas: string[];
  versions: Array<{ file: string; version: string }>;
}

export async function versionMarks(
  gh: TokenOctokit,
  repo: string,
  pulls: readonly VersionedPull[],
  since: Date,
): Promise<{ marks: ReleaseMark[]; tagsOf: Map<string, string[]> }> {
  const marks: ReleaseMark[] = [];
  const tagsOf = new Map<string, string[]>();
  const bySha = new Map<string, VersionedPull>();
  for (const p of pulls) for (const sha of p.shas) bySha.set(sha, p);
  const place = (p: VersionedPull, how: ReleaseMark['how'], name: string, version: string) => {
    marks.push({ repo, unitId: p.key, at: p.mergedAt, version, how, name });
    if (how !== 'version-field') tagsOf.set(p.key, [...new Set([...(tagsOf.get(p.key) ?? []), name])]);
  };
  for (const p of pulls) for (const v of p.versions) place(p, 'version-field', v.file, v.version);
  const tags = await recentTags(gh, repo);
  const tagSha = new Map(tags.map((t) => [t.name, t.sha]));
  for (const t of tags) {
    const v = versionOfTag(t.name);
    const p = bySha.get(t.sha);
    if (v && p) place(p, 'tag', t.name, v.version);
  }
  const byTime = [...pulls].sort((a, b) => a.mergedAt - b.mergedAt);
  for (const r of await releasesSince(gh, repo, since)) {
    const v = versionOfTag(r.tag);
    if (!v) continue;
    const sha = tagSha.get(r.tag) ?? (/^[0-9a-f]{40}$/.test(r.target) ? r.target : undefined);
    // A release of a branch names no commit: it holds what was merged before it was published.
    const p = (sha && bySha.get(sha)) || byTime.filter((x) => x.mergedAt <= r.at).at(-1);
    if (p) place(p, 'release', r.tag, v.version);
  }
  return { marks, tagsOf };
}

export async function repoManifests(gh: TokenOctokit, repo: string): Promise<RepoManifests> {
  return { repo, files: await rootManifests(gh, repo) };
}
