/**
 * `tandem mine git`: cross-repository tasks from git history alone (mirrors, self-hosted git,
 * organizations without pull requests). Each first-parent commit since the date is a change; its
 * message (and, for a merge, the merged commits' messages) gives its cues; commits of one
 * repository that share a reference form that repository's side of the set.
 */
import { urlWithoutCredentials } from '../core/credentials.ts';
import { splitRepo } from '../core/repo-name.ts';
import { MirrorCache } from '../engine/git/git-mirror.ts';
import type { SetDescription } from './candidate.ts';
import { type Cue, cuesInText } from './cues.ts';
import { type HistoryCommit, readHistory } from './git-history.ts';
import type { LinkUnit } from './link-graph.ts';
import { MineOutput } from './mine-output.ts';
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

/** A commit's URL when the repository is on a web host we can name (`https://host/o/r`). */
function commitUrl(source: GitRepoSource, sha: string): string {
  const url = urlWithoutCredentials(source.url);
  const web = /^https?:\/\/[^/]+\/[^/]+\/[^/]+?(?:\.git)?\/?$/i.test(url)
    ? url.replace(/\.git\/?$/, '').replace(/\/$/, '')
    : undefined;
  return web ? `${web}/commit/${sha}` : `${source.repo}@${sha}`;
}

export async function mineGit(opts: MineGitOptions): Promise<MineOutput> {
  const output = new MineOutput(opts.out, opts.screenedOut);
  const mirrors = new MirrorCache(opts.cacheDir);
  const histories = new Map<string, RepoHistory>();
  const units: LinkUnit[] = [];
  const cuesOf = new Map<string, Cue[]>();
  let done = 0;
  for (const source of opts.repos) {
    const parts = splitRepo(source.repo);
    if (!parts) throw new Error(`not owner/name: ${source.repo}`);
    opts.onProgress?.(done, opts.repos.length, `reading ${source.repo}`);
    const mirror = await mirrors.ensure(source.url);
    const tip = await mirrors.resolve(source.url, source.ref ?? 'HEAD');
    const history = await readHistory(mirror, tip, {
      since: opts.since,
      ...(opts.until ? { until: opts.until } : {}),
    });
    histories.set(source.repo, { source, mirror, commits: new Map(history.map((c) => [c.sha, c])) });
    for (const c of history) {
      const cues = [c.message, ...c.mergedMessages].flatMap((m) => cuesInText(m, parts));
      if (cues.length === 0 && !c.branch) continue;
      const id = `${source.repo}@${c.sha}`;
      cuesOf.set(id, cues);
      units.push({
        id,
        repo: source.repo,
        ownKeys: [],
        cues,
        at: c.at,
        ...(c.branch ? { branch: c.branch } : {}),
      });
    }
    done++;
  }
  opts.onProgress?.(done, opts.repos.length, 'linking');

  await forEachLinkedSet(units, opts, output, async (comp, settings) => {
    const sides: SideInput[] = [];
    const described: SetDescription = {
      source: 'git',
      cues: [],
      sharedBranches: comp.sharedBranches,
      problemStatement: '',
      needsRewrite: true,
      createdAt: '',
      provenance: [],
    };
    let latest = 0;
    const messages: string[] = [];
    for (const repo of comp.repos) {
      const h = histories.get(repo)!;
      // Branch order, not time: commits of one second (a rebase) keep their order.
      // The map holds the history in branch order.
      const inSet = new Set(comp.units);
      const commits = [...h.commits.values()].filter((c) => inSet.has(`${repo}@${c.sha}`));
      sides.push({
        repo,
        // Candidates are shared: a token in the URL given stays with the mirror, not in them.
        url: urlWithoutCredentials(h.source.url),
        mirror: h.mirror,
        steps: commits.map((c) => ({ sha: c.sha, parent: c.parents[0] ?? '' })),
      });
      for (const c of commits) {
        latest = Math.max(latest, c.at);
        messages.push(`${repo}: ${c.message}`);
        described.provenance.push(commitUrl(h.source, c.sha));
        for (const cue of cuesOf.get(`${repo}@${c.sha}`) ?? [])
          described.cues.push({ ...cue, from: `${repo}@${c.sha}` });
      }
    }
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
