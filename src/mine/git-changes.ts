/**
 * What `tandem mine git` knows of each repository once its history is read: every first-parent
 * commit as a change with its text cues (from its message and, for a merge, the merged commits'
 * messages) and its coupling facts (its diff), the versions the repository made (version fields
 * its commits set, tags on its commits), and its manifests. Pure: the reading is mine-git.ts's.
 */
import type { RepoParts } from '../core/repo-name.ts';
import { versionOfTag } from '../core/version-ranges.ts';
import { changeFacts } from './change-facts.ts';
import type { CouplingUnit, ReleaseMark } from './coupling.ts';
import { type Cue, cuesInText } from './cues.ts';
import type { FileDiff } from './diff-lines.ts';
import type { HistoryCommit } from './git-history.ts';
import type { LinkUnit } from './link-graph.ts';
import type { RepoManifests } from './package-index.ts';

export interface GitRepoSource {
  repo: string;
  url: string;
  /** Branch, tag or SHA whose history is read; default the remote's HEAD. */
  ref?: string;
}

/** One repository as read from its mirror. */
export interface GitRepoRead {
  source: GitRepoSource;
  parts: RepoParts;
  mirror: string;
  /** First-parent commits in branch order. */
  history: HistoryCommit[];
  /** Each commit's diff, by SHA. */
  diffs: ReadonlyMap<string, readonly FileDiff[]>;
  tags: ReadonlyArray<{ name: string; sha: string }>;
  manifests: RepoManifests;
}

export interface RepoHistory {
  source: GitRepoSource;
  mirror: string;
  /** The history in branch order, by SHA. */
  commits: Map<string, HistoryCommit>;
}

/** A commit's change id: `owner/name@sha`. */
export function commitId(repo: string, sha: string): string {
  return `${repo}@${sha}`;
}

/** Every repository's changes, versions and manifests, gathered one repository at a time. */
export class GitChanges {
  readonly histories = new Map<string, RepoHistory>();
  readonly units: LinkUnit[] = [];
  readonly coupled: CouplingUnit[] = [];
  readonly marks: ReleaseMark[] = [];
  readonly manifests: RepoManifests[] = [];
  /** The text cues of each change, by change id. */
  readonly cuesOf = new Map<string, Cue[]>();
  /** The tags on each change's commit, by change id. */
  readonly tagsOf = new Map<string, string[]>();

  add(read: GitRepoRead): this {
    const { source } = read;
    this.manifests.push(read.manifests);
    this.histories.set(source.repo, {
      source,
      mirror: read.mirror,
      commits: new Map(read.history.map((c) => [c.sha, c])),
    });
    for (const c of read.history) this.#addCommit(read, c);
    for (const tag of read.tags) this.#addTag(source.repo, tag);
    return this;
  }

  #addCommit(read: GitRepoRead, c: HistoryCommit): void {
    const repo = read.source.repo;
    const id = commitId(repo, c.sha);
    const cues = [c.message, ...c.mergedMessages].flatMap((m) => cuesInText(m, read.parts));
    this.cuesOf.set(id, cues);
    this.units.push({ id, repo, ownKeys: [], cues, at: c.at, ...(c.branch ? { branch: c.branch } : {}) });
    const facts = changeFacts(read.diffs.get(c.sha) ?? []);
    this.coupled.push({ id, repo, sha: c.sha, at: c.at, facts });
    for (const v of facts.versions)
      this.marks.push({ repo, unitId: id, at: c.at, version: v.version, how: 'version-field', name: v.file });
  }

  /** A tag on a commit of the history read: the commit's tag, and a version when it names one. */
  #addTag(repo: string, tag: { name: string; sha: string }): void {
    const c = this.histories.get(repo)?.commits.get(tag.sha);
    if (!c) return;
    const id = commitId(repo, c.sha);
    this.tagsOf.set(id, [...(this.tagsOf.get(id) ?? []), tag.name]);
    const v = versionOfTag(tag.name);
    if (v) this.marks.push({ repo, unitId: id, at: c.at, version: v.version, how: 'tag', name: tag.name });
  }
}
