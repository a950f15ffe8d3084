/**
 * `tandem mine git`: cross-repository tasks from git history alone (mirrors, self-hosted git,
 * organizations without pull requests). Each first-parent commit since the date is a change; its
 * message (and, for a merge, the merged commits' messages) gives its text cues, its diff the
 * coupling cues (dependency bumps to a version the producer tagged or set, shared symbols);
 * commits of one repository joined by links form that repository's side of the set.
 */
import { urlWithoutCredentials } from '../core/credentials.ts';
import { sameRepo, splitRepo } from '../core/repo-name.ts';
import { versionOfTag } from '../core/version-ranges.ts';
import { MirrorCache } from '../engine/git/git-mirror.ts';
import type { SetDescription } from './candidate.ts';
import { changeFacts } from './change-facts.ts';
import { type CouplingUnit, couplingLinks, type ReleaseMark } from './coupling.ts';
import { type Cue, cuesInText } from './cues.ts';
import { commitDiffs, manifestsAt, tagsOf } from './git-coupling-read.ts';
import { type HistoryCommit, readHistory } from './git-history.ts';
import type { LinkUnit } from './link-graph.ts';
import { MineOutput } from './mine-output.ts';
import { packageIndex, type RepoManifests } from './package-index.ts';
import { forEachLinkedSet, type MineSettings, processSet, type SideInput } from './set-pipeline.ts';

export interface GitRepoSource {
  repo: string;
  url: string;
  /** Branch, tag or SHA whose history is read; default the remote's HEAD. */
  ref?: string;
}

export interface MineGitOptions {
  repos: GitRepoSource[];
  since: Date;
  until?: Date;
  windowMs: number;
  cacheDir: string;
  out: string;
  screenedOut?: string;
  settings: Omit<MineSettings, 'scratchRoot'>;
  onProgress?: (done: number, total: number, what: string) => void;
}

interface RepoHistory {
  source: GitRepoSource;
  mirror: string;
  commits: Map<string, HistoryCommit>;
}

/** The repository's web page when it is on a web host we can name (`https://host/o/r`). */
function webUrl(source: GitRepoSource): string | undefined {
  const url = urlWithoutCredentials(source.url);
  return /^https?:\/\/[^/]+\/[^/]+\/[^/]+?(?:\.git)?\/?$/i.test(url)
    ? url.replace(/\.git\/?$/, '').replace(/\/$/, '')
    : undefined;
}

/** A commit's URL on its web host, else `owner/name@sha`. */
function commitUrl(source: GitRepoSource, sha: string): string {
  const web = webUrl(source);
  return web ? `${web}/commit/${sha}` : `${source.repo}@${sha}`;
}

/** An issue or PR key as a URL when its repository is one of the sources on a web host. */
function issueUrl(sources: readonly GitRepoSource[], key: string): string {
  const hash = key.lastIndexOf('#');
  const source = sources.find((s) => sameRepo(s.repo, key.slice(0, hash)));
  const web = source ? webUrl(source) : undefined;
  return web ? `${web}/issues/${key.slice(hash + 1)}` : key;
}

export async function mineGit(opts: MineGitOptions): Promise<MineOutput> {
  const output = new MineOutput(opts.out, opts.screenedOut);
  const mirrors = new MirrorCache(opts.cacheDir);
  const histories = new Map<string, RepoHistory>();
  const units: LinkUnit[] = [];
  const coupled: CouplingUnit[] = [];
  const marks: ReleaseMark[] = [];
  const manifests: RepoManifests[] = [];
  const cuesOf = new Map<string, Cue[]>();
  const tagsOfCommit = new Map<string, string[]>();
  let done = 0;
  for (const source of opts.repos) {
    const parts = splitRepo(source.repo);
    if (!parts) throw new Error(`not owner/name: ${source.repo}`);
    opts.onProgress?.(done, opts.repos.length, `reading ${source.repo}`);
    const mirror = await mirrors.ensure(source.url);
    const tip = await mirrors.resolve(source.url, source.ref ?? 'HEAD');
    const range = { since: opts.since, ...(opts.until ? { until: opts.until } : {}) };
    const history = await readHistory(mirror, tip, range);
    const diffs = await commitDiffs(mirror, tip, range);
    manifests.push(await manifestsAt(mirror, source.repo, tip));
    histories.set(source.repo, { source, mirror, commits: new Map(history.map((c) => [c.sha, c])) });
    for (const c of history) {
      const id = `${source.repo}@${c.sha}`;
      const cues = [c.message, ...c.mergedMessages].flatMap((m) => cuesInText(m, parts));
      cuesOf.set(id, cues);
      units.push({
        id,
        repo: source.repo,
        ownKeys: [],
        cues,
        at: c.at,
        ...(c.branch ? { branch: c.branch } : {}),
      });
      const facts = changeFacts(diffs.get(c.sha) ?? []);
      coupled.push({ id, repo: source.repo, sha: c.sha, at: c.at, facts });
      for (const v of facts.versions)
        marks.push({
          repo: source.repo,
          unitId: id,
          at: c.at,
          version: v.version,
          how: 'version-field',
          name: v.file,
        });
    }
    for (const tag of await tagsOf(mirror)) {
      const c = histories.get(source.repo)!.commits.get(tag.sha);
      const v = versionOfTag(tag.name);
      if (!c) continue;
      const id = `${source.repo}@${c.sha}`;
      tagsOfCommit.set(id, [...(tagsOfCommit.get(id) ?? []), tag.name]);
      if (v)
        marks.push({
          repo: source.repo,
          unitId: id,
          at: c.at,
          version: v.version,
          how: 'tag',
          name: tag.name,
        });
    }
    done++;
  }
  opts.onProgress?.(done, opts.repos.length, 'linking');
  const coupling = couplingLinks(coupled, marks, packageIndex(manifests), opts.windowMs);

  await forEachLinkedSet(units, { ...opts, coupling }, output, async (comp, settings) => {
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
      const h = histories.get(repo)!;
      // Branch order, not time: commits of one second (a rebase) keep their order.
      // The map holds the history in branch order.
      const commits = [...h.commits.values()].filter((c) => inSet.has(`${repo}@${c.sha}`));
      sides.push({
        repo,
        // Candidates are shared: a token in the URL given stays with the mirror, not in them.
        url: urlWithoutCredentials(h.source.url),
        mirror: h.mirror,
        steps: commits.map((c) => ({ sha: c.sha, parent: c.parents[0] ?? '' })),
      });
      const tags: string[] = [];
      for (const c of commits) {
        const id = `${repo}@${c.sha}`;
        latest = Math.max(latest, c.at);
        messages.push(`${repo}: ${c.message}`);
        described.provenance.push(commitUrl(h.source, c.sha));
        tags.push(...(tagsOfCommit.get(id) ?? []));
        for (const cue of cuesOf.get(id) ?? []) described.cues.push({ ...cue, from: id });
      }
      if (tags.length) described.tags[repo] = tags;
    }
    described.issues = [...new Set(described.cues.map((c) => c.target))];
    described.provenance.push(...described.issues.map((k) => issueUrl(opts.repos, k)));
    // Git has no issue text: the commit messages are the statement, and they may give the fix away.
    described.problemStatement = messages.join('\n\n');
    described.createdAt = new Date(latest).toISOString();
    if (sides.some((s) => s.steps.some((st) => !st.parent))) {
      output.screened.push({
        changes: comp.units,
        repos: comp.repos,
        reason: { code: 'unreadable', message: 'a commit of the set is a root commit: it has no base' },
      });
      return;
    }
    await processSet(sides, described, comp.units, settings, output);
  });
  await output.write();
  return output;
}
