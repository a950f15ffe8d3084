/**
 * The stand-in's in-memory world: repositories, installations, pull requests, comments, check runs,
 * files, permissions, reactions, dispatches and artifacts. Records are plain data; `shapes.ts` turns
 * them into GitHub's REST shapes. Seeding methods here are re-exported on `StandIn` (see index.ts).
 */

export type Permission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

export interface RepoRecord {
  id: number;
  owner: string;
  name: string;
  cloneUrl: string;
  defaultBranch: string;
  private: boolean;
  installationId: number;
  createdAt: string;
}

export interface InstallationRecord {
  id: number;
  account: string;
  accountType: 'Organization' | 'User';
}

/** A PR: an issue (its number shared with the repository's issues) with branches and a merge state. */
export interface PullRecord extends IssueRecord {
  draft: boolean;
  merged: boolean;
  mergedAt: string | null;
  headRef: string;
  headSha: string;
  /** Repository the head branch lives in (`owner/name`); the base repository unless a fork. */
  headRepo: { owner: string; name: string };
  baseRef: string;
  baseSha: string;
  /** The PR's commits (`GET …/pulls/{n}/commits`), oldest first; default: its head alone. */
  commits?: PullCommitRecord[];
  /** The commit the merge made on the base branch (GitHub's `merge_commit_sha`). */
  mergeCommitSha?: string | null;
  /** `GET …/pulls/{n}/files`; default none. */
  files?: PullFileRecord[];
}

/** A file a PR changed (`GET …/pulls/{n}/files`): its unified-diff hunks as GitHub's `patch`. */
export interface PullFileRecord {
  filename: string;
  status: 'added' | 'removed' | 'modified';
  additions: number;
  deletions: number;
  patch?: string;
}

/** A GitHub release (`GET …/releases`), naming its tag. */
export interface ReleaseRecord {
  id: number;
  owner: string;
  repo: string;
  tagName: string;
  targetCommitish: string;
  name: string;
  publishedAt: string;
}

/** A tag as `GET …/tags` lists it. */
export interface TagRecord {
  owner: string;
  repo: string;
  name: string;
  sha: string;
}

export interface PullCommitRecord {
  sha: string;
  message: string;
  parents?: string[];
  /** Whether GitHub verifies the commit's signature (default: unsigned). */
  verified?: boolean;
}

/** A plain issue (PRs are issues too on GitHub; those stay in `pulls`). */
export interface IssueRecord {
  id: number;
  owner: string;
  repo: string;
  number: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  user: string;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

/** A mention of an issue or PR from a PR (GitHub's `cross-referenced` timeline event). */
export interface CrossReferenceRecord {
  target: { owner: string; repo: string; number: number };
  source: { owner: string; repo: string; number: number };
  createdAt: string;
}

export interface CommentRecord {
  id: number;
  owner: string;
  repo: string;
  issueNumber: number;
  body: string;
  user: string;
  /** True when written with an installation token: GitHub then fills `performed_via_github_app`. */
  viaApp: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface CheckRunRecord {
  id: number;
  owner: string;
  repo: string;
  name: string;
  headSha: string;
  status: string;
  conclusion: string | null;
  externalId: string | null;
  detailsUrl: string | null;
  startedAt: string | null;
  completedAt: string | null;
  output: { title: string | null; summary: string | null; text: string | null; annotationsCount: number };
  /** Every body received (create then updates), for assertions on what the App sent. */
  history: unknown[];
}

export interface ReactionRecord {
  id: number;
  commentId: number;
  content: string;
  user: string;
  createdAt: string;
}

export type DispatchRecord =
  | {
      kind: 'workflow';
      owner: string;
      repo: string;
      workflowId: string;
      ref: string;
      inputs: Record<string, unknown>;
    }
  | {
      kind: 'repository';
      owner: string;
      repo: string;
      eventType: string;
      clientPayload: Record<string, unknown>;
    };

export interface ArtifactRecord {
  id: number;
  owner: string;
  repo: string;
  runId: number;
  name: string;
  zip: Buffer;
  createdAt: string;
}

export interface WorkflowRunRecord {
  id: number;
  owner: string;
  repo: string;
  /** The workflow file name (`tandem.yml`), as dispatches name it. */
  workflowId: string;
  /** The workflow's `name:`. */
  name: string;
  /** The run's `run-name` (GitHub's `display_title`). */
  displayTitle: string;
  event: string;
  status: 'requested' | 'queued' | 'in_progress' | 'completed' | 'waiting' | 'pending';
  conclusion: string | null;
  headBranch: string;
  headSha: string;
  runAttempt: number;
  createdAt: string;
  updatedAt: string;
}

export interface RequestLogEntry {
  method: string;
  /** Path without the `/api/v3` prefix and without query. */
  path: string;
  query: string;
  status: number;
  installationId?: number;
  body?: unknown;
  /** The JSON body answered (absent for raw bodies and empty answers). */
  response?: unknown;
}

/** What a test says about a repository it adds; the rest is defaulted. */
export interface RepoSeed {
  owner: string;
  name: string;
  cloneUrl?: string;
  defaultBranch?: string;
  private?: boolean;
}

export const now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

/** What GitHub records when a PR merges: closed, merged now, `sha` its merge commit. */
export function markPullMerged(p: PullRecord, sha: string): void {
  const at = now();
  Object.assign(p, {
    state: 'closed',
    merged: true,
    mergedAt: at,
    closedAt: at,
    updatedAt: at,
    mergeCommitSha: sha,
  });
}

export const repoKey = (owner: string, repo: string): string => `${owner}/${repo}`.toLowerCase();

/**
 * State a route module keeps beside a stand-in's state (made on first use, one per stand-in, and
 * gone with it): `const world = perState(() => ({ entries: [] }))`, then `world(state)`.
 */
export function perState<T extends object>(make: () => T): (state: StandInState) => T {
  const kept = new WeakMap<StandInState, T>();
  return (state) => {
    let value = kept.get(state);
    if (!value) {
      value = make();
      kept.set(state, value);
    }
    return value;
  };
}

export class StandInState {
  readonly repos = new Map<string, RepoRecord>();
  readonly installations = new Map<number, InstallationRecord>();
  readonly pulls: PullRecord[] = [];
  readonly issues: IssueRecord[] = [];
  readonly crossReferences: CrossReferenceRecord[] = [];
  readonly commentList: CommentRecord[] = [];
  readonly checkRunList: CheckRunRecord[] = [];
  readonly reactionList: ReactionRecord[] = [];
  readonly dispatches: DispatchRecord[] = [];
  readonly artifacts: ArtifactRecord[] = [];
  readonly workflowRuns: WorkflowRunRecord[] = [];
  readonly releases: ReleaseRecord[] = [];
  readonly tags: TagRecord[] = [];
  readonly requests: RequestLogEntry[] = [];
  /** `owner/repo@ref` → path → content. */
  readonly files = new Map<string, Map<string, Buffer>>();
  readonly permissions = new Map<string, Permission>();
  private nextId = 1000;
  private readonly watchers = new Set<() => void>();

  /**
   * Resolves once `pred` holds: checked now and after every request the stand-in answers (the
   * App changes GitHub only through requests), so tests wait on the App's calls, not on a clock.
   */
  when(pred: () => boolean): Promise<void> {
    if (pred()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!pred()) return;
        this.watchers.delete(check);
        resolve();
      };
      this.watchers.add(check);
    });
  }

  /** The pipeline calls this after each answered request. */
  answered(): void {
    for (const check of [...this.watchers]) check();
  }

  newId(): number {
    this.nextId += 1;
    return this.nextId;
  }

  addInstallation(input: { id?: number; account: string; accountType?: 'Organization' | 'User' }) {
    const existing = [...this.installations.values()].find(
      (i) => i.account.toLowerCase() === input.account.toLowerCase(),
    );
    if (existing) return existing;
    const rec: InstallationRecord = {
      id: input.id ?? this.newId(),
      account: input.account,
      accountType: input.accountType ?? 'Organization',
    };
    this.installations.set(rec.id, rec);
    return rec;
  }

  installationFor(owner: string): InstallationRecord | undefined {
    return [...this.installations.values()].find((i) => i.account.toLowerCase() === owner.toLowerCase());
  }

  addRepo(input: RepoSeed): RepoRecord {
    // Installing the App on the owner is implicit: one installation per account, made on first use.
    const installation = this.addInstallation({ account: input.owner });
    const rec: RepoRecord = {
      id: this.newId(),
      owner: input.owner,
      name: input.name,
      cloneUrl: input.cloneUrl ?? `https://github.com/${input.owner}/${input.name}.git`,
      defaultBranch: input.defaultBranch ?? 'main',
      private: input.private ?? false,
      installationId: installation.id,
      createdAt: now(),
    };
    this.repos.set(repoKey(input.owner, input.name), rec);
    return rec;
  }

  repo(owner: string, name: string): RepoRecord | undefined {
    return this.repos.get(repoKey(owner, name));
  }

  pull(owner: string, repo: string, number: number): PullRecord | undefined {
    const key = repoKey(owner, repo);
    return this.pulls.find((p) => repoKey(p.owner, p.repo) === key && p.number === number);
  }

  /** Issue and PR numbers share one sequence per repository, as on GitHub. */
  nextNumber(owner: string, repo: string): number {
    const key = repoKey(owner, repo);
    const used = [...this.pulls, ...this.issues]
      .filter((p) => repoKey(p.owner, p.repo) === key)
      .map((p) => p.number);
    return used.length === 0 ? 1 : Math.max(...used) + 1;
  }

  issue(owner: string, repo: string, number: number): IssueRecord | undefined {
    const key = repoKey(owner, repo);
    return this.issues.find((i) => repoKey(i.owner, i.repo) === key && i.number === number);
  }

  setFile(owner: string, repo: string, path: string, content: string | Buffer, ref?: string): void {
    const r = this.repo(owner, repo);
    const key = `${repoKey(owner, repo)}@${ref ?? r?.defaultBranch ?? 'main'}`;
    let tree = this.files.get(key);
    if (!tree) {
      tree = new Map();
      this.files.set(key, tree);
    }
    tree.set(path.replace(/^\/+/, ''), Buffer.isBuffer(content) ? content : Buffer.from(content));
  }

  tree(owner: string, repo: string, ref: string): Map<string, Buffer> | undefined {
    return this.files.get(`${repoKey(owner, repo)}@${ref}`);
  }

  setPermission(owner: string, repo: string, user: string, perm: Permission): void {
    this.permissions.set(`${repoKey(owner, repo)}:${user.toLowerCase()}`, perm);
  }

  permission(owner: string, repo: string, user: string): Permission | undefined {
    return this.permissions.get(`${repoKey(owner, repo)}:${user.toLowerCase()}`);
  }
}
