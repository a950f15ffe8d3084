/**
 * A linked set of commits from `tandem mine git` as the shared set pipeline takes it: one side per
 * repository (its commits of the set, in branch order) and the set's description (cues, tags,
 * provenance as web URLs where the host has pages, the commit messages as the statement). Pure.
 */
import { urlWithoutCredentials } from '../core/credentials.ts';
import { sameRepo } from '../core/repo-name.ts';
import type { SetDescription } from './candidate.ts';
import { commitId, type GitChanges, type GitRepoSource } from './git-changes.ts';
import type { LinkedComponent } from './link-graph.ts';
import type { SideInput } from './set-pipeline.ts';

/** The repository's web page when it is on a web host we can name (`https://host/o/r`). */
export function webUrl(source: GitRepoSource): string | undefined {
  const url = urlWithoutCredentials(source.url);
  return /^https?:\/\/[^/]+\/[^/]+\/[^/]+?(?:\.git)?\/?$/i.test(url)
    ? url.replace(/\.git\/?$/, '').replace(/\/$/, '')
    : undefined;
}

/** A commit's URL on its web host, else `owner/name@sha`. */
export function commitUrl(source: GitRepoSource, sha: string): string {
  const web = webUrl(source);
  return web ? `${web}/commit/${sha}` : commitId(source.repo, sha);
}

/** An issue or PR key as a URL when its repository is one of the sources on a web host. */
export function issueUrl(sources: readonly GitRepoSource[], key: string): string {
  const hash = key.lastIndexOf('#');
  const source = sources.find((s) => sameRepo(s.repo, key.slice(0, hash)));
  const web = source ? webUrl(source) : undefined;
  return web ? `${web}/issues/${key.slice(hash + 1)}` : key;
}

export interface GitSet {
  sides: SideInput[];
  described: SetDescription;
}

/** The set's sides and description; a set holding a root commit (no base to diff against) is refused. */
export function describeGitSet(
  comp: LinkedComponent,
  changes: GitChanges,
  sources: readonly GitRepoSource[],
): GitSet | { refused: string } {
  const sides: SideInput[] = [];
  const described: SetDescription = {
    source: 'git',
    cues: [],
    sharedBranches: comp.sharedBranches,
    problemStatement: '',
    needsRewrite: true,
    createdAt: '',
    provenance: [],
    links: comp.links,
    issues: [],
    tags: {},
  };
  let latest = 0;
  const messages: string[] = [];
  const inSet = new Set(comp.units);
  for (const repo of comp.repos) {
    const h = changes.histories.get(repo)!;
    // Branch order, not time: commits of one second (a rebase) keep their order.
    // The map holds the history in branch order.
    const commits = [...h.commits.values()].filter((c) => inSet.has(commitId(repo, c.sha)));
    sides.push({
      repo,
      // Candidates are shared: a token in the URL given stays with the mirror, not in them.
      url: urlWithoutCredentials(h.source.url),
      mirror: h.mirror,
      steps: commits.map((c) => ({ sha: c.sha, parent: c.parents[0] ?? '' })),
    });
    const tags: string[] = [];
    for (const c of commits) {
      const id = commitId(repo, c.sha);
      latest = Math.max(latest, c.at);
      messages.push(`${repo}: ${c.message}`);
      described.provenance.push(commitUrl(h.source, c.sha));
      tags.push(...(changes.tagsOf.get(id) ?? []));
      for (const cue of changes.cuesOf.get(id) ?? []) described.cues.push({ ...cue, from: id });
    }
    if (tags.length) described.tags[repo] = tags;
  }
  if (sides.some((s) => s.steps.some((st) => !st.parent)))
    return { refused: 'a commit of the set is a root commit: it has no base' };
  described.issues = [...new Set(described.cues.map((c) => c.target))];
  described.provenance.push(...described.issues.map((k) => issueUrl(sources, k)));
  // Git has no issue text: the commit messages are the statement, and they may give the fix away.
  described.problemStatement = messages.join('\n\n');
  described.createdAt = new Date(latest).toISOString();
  return { sides, described };
}
