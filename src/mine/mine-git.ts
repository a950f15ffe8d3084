/**
 * `tandem mine git`: cross-repository tasks from git history alone (mirrors, self-hosted git,
 * organizations without pull requests). Each first-parent commit since the date is a change; its
 * message (and, for a merge, the merged commits' messages) gives its text cues, its diff the
 * coupling cues (dependency bumps to a version the producer tagged or set, shared symbols);
 * commits of one repository joined by links form that repository's side of the set.
 */
import { splitRepo } from '../core/repo-name.ts';
import { MirrorCache } from '../engine/git/git-mirror.ts';
import { couplingLinks } from './coupling.ts';
import { GitChanges, type GitRepoRead, type GitRepoSource } from './git-changes.ts';
import { commitDiffs, manifestsAt, tagsOf } from './git-coupling-read.ts';
import { readHistory } from './git-history.ts';
import { describeGitSet } from './git-set-description.ts';
import { MineOutput } from './mine-output.ts';
import { packageIndex } from './package-index.ts';
import { forEachLinkedSet, type MineSettings, processSet } from './set-pipeline.ts';

export type { GitRepoSource } from './git-changes.ts';

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

/** The phases: read each repository, link the changes, then each linked set through the pipeline. */
export async function mineGit(opts: MineGitOptions): Promise<MineOutput> {
  const changes = await readRepositories(opts);
  opts.onProgress?.(opts.repos.length, opts.repos.length, 'linking');
  const coupling = couplingLinks(
    changes.coupled,
    changes.marks,
    packageIndex(changes.manifests),
    opts.windowMs,
  );
  const output = new MineOutput(opts.out, opts.screenedOut);
  await forEachLinkedSet(changes.units, { ...opts, coupling }, output, async (comp, settings) => {
    const set = describeGitSet(comp, changes, opts.repos);
    if ('refused' in set) {
      output.screened.push({
        changes: comp.units,
        repos: comp.repos,
        reason: { code: 'unreadable', message: set.refused },
      });
      return;
    }
    await processSet(set.sides, set.described, comp.units, settings, output);
  });
  await output.write();
  return output;
}

/** Every source's history since the date, one repository after the other, with progress. */
async function readRepositories(opts: MineGitOptions): Promise<GitChanges> {
  const mirrors = new MirrorCache(opts.cacheDir);
  const range = { since: opts.since, ...(opts.until ? { until: opts.until } : {}) };
  const changes = new GitChanges();
  for (const [done, source] of opts.repos.entries()) {
    const parts = splitRepo(source.repo);
    if (!parts) throw new Error(`not owner/name: ${source.repo}`);
    opts.onProgress?.(done, opts.repos.length, `reading ${source.repo}`);
    changes.add(await readRepository(mirrors, source, parts, range));
  }
  return changes;
}

/** One repository from its mirror: history, each commit's diff, tags, manifests at the tip. */
async function readRepository(
  mirrors: MirrorCache,
  source: GitRepoSource,
  parts: GitRepoRead['parts'],
  range: { since: Date; until?: Date },
): Promise<GitRepoRead> {
  const mirror = await mirrors.ensure(source.url);
  const tip = await mirrors.resolve(source.url, source.ref ?? 'HEAD');
  const history = await readHistory(mirror, tip, range);
  const diffs = await commitDiffs(mirror, tip, range);
  const manifests = await manifestsAt(mirror, source.repo, tip);
  return { source, parts, mirror, history, diffs, tags: await tagsOf(mirror), manifests };
}
