/**
 * The GitHub port (`src/app/port/github-port.ts`) in memory, for fast unit tests of the App's
 * decisions: repositories, PRs, write access, the org's `tandem.yml` and the `Tandem` checks are
 * plain maps the test fills. PRs are built as GitHub sends them and read through the App's own
 * parser (`pullInfoOf`), repositories through the port's schemas, so the rooms see what the
 * Octokit adapter would give them. Every call is logged in `calls` (`pull acme/api#1`,
 * `canWrite acme/api alice`, …) so a test can say what the App asked GitHub, and what it did not.
 *
 * GitHub Actions (dispatches, runs, artifacts) live in `actions` (memory-actions.ts).
 *
 * Not served: publishing and `/tandem merge` (they take `octokit`, which throws here), and suites
 * (`fetchSuite`): tests of those go through the HTTP stand-in (test/support/github-standin).
 */

import {
  type CheckLink,
  type FoundCheckRun,
  type GitHubPort,
  type Reaction,
  type RepoInfo,
  repoInfoSchema,
} from '../../src/app/port/github-port.ts';
import type { CheckRunOutput } from '../../src/core/check-run-output.ts';
import { type PullRef, pullKey } from '../../src/core/pull-ref.ts';
import { type PullInfo, pullInfoOf } from '../../src/core/pull-request.schema.ts';
import { loginKey, RepoMap, repoKey, splitRepo } from '../../src/core/repo-name.ts';
import type { RepoVisibility } from '../../src/core/repo-visibility.ts';
import type { WorkflowRunInfo } from '../../src/github/actions.ts';
import type { CheckConclusion } from '../../src/github/check-runs.ts';
import type { GitHub } from '../../src/github/octokit.ts';
import { type OrgConfigLoad, parseOrgConfig } from '../../src/github/org-config.ts';
import type { FetchedSuite } from '../../src/github/suite-fetch.ts';
import { MemoryActions } from './memory-actions.ts';

export interface MemoryPull {
  /** `owner/name` of the base repository (added with `addRepo` first). */
  repo: string;
  number: number;
  title?: string;
  body?: string;
  author?: string;
  headRef?: string;
  /** Where the head branch lives (a fork's `owner/name`); the base repository when unset. */
  headRepo?: string;
  headSha?: string;
  state?: 'open' | 'closed' | 'merged';
}

export interface MemoryCheck {
  id: number;
  repo: string;
  headSha: string;
  externalId: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion?: CheckConclusion;
  title: string;
  /** Where the check's "Details" lead (the workflow run, once linked). */
  detailsUrl?: string;
}

/** An error shaped like Octokit's: the rooms tell "not there" from trouble by `status`. */
export class MemoryHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface StoredRepo {
  name: string;
  visibility: RepoVisibility;
  defaultBranch: string;
}

export class MemoryGitHub implements GitHubPort {
  /** What the App asked, in order. */
  readonly calls: string[] = [];
  readonly checks: MemoryCheck[] = [];
  readonly reactions: Array<{ repo: string; commentId: number; content: Reaction }> = [];
  readonly actions = new MemoryActions();
  private readonly repos = new RepoMap<StoredRepo>();
  private readonly pulls = new Map<string, MemoryPull>();
  private readonly writers = new Set<string>();
  private readonly configs = new Map<string, string>();
  private nextCheckId = 1;
  /** Search answers 422 (the App then has no answer to remember). */
  searchRefused = false;

  get octokit(): GitHub {
    throw new Error('the in-memory GitHub has no Octokit: test publishing and merges over the HTTP stand-in');
  }

  addRepo(name: string, opts: { visibility?: RepoVisibility; defaultBranch?: string } = {}): this {
    this.repos.set(name, {
      name,
      visibility: opts.visibility ?? 'public',
      defaultBranch: opts.defaultBranch ?? 'main',
    });
    return this;
  }

  /** Adds (or replaces) a PR; returns it as the App reads it. */
  addPull(p: MemoryPull): PullInfo {
    if (!this.repos.has(p.repo)) throw new Error(`addRepo(${p.repo}) first`);
    this.pulls.set(this.keyOf(p.repo, p.number), p);
    return this.info(p);
  }

  /** Gives `login` write access to `repo`. */
  grantWrite(repo: string, login: string): this {
    this.writers.add(`${repoKey(repo)} ${loginKey(login)}`);
    return this;
  }

  /** The organization's `.github/tandem.yml`. */
  setOrgConfig(org: string, yaml: string): this {
    this.configs.set(loginKey(org), yaml);
    return this;
  }

  async pull(ref: PullRef): Promise<PullInfo | undefined> {
    this.calls.push(`pull ${pullKey(ref)}`);
    const p = this.pulls.get(this.keyOf(`${ref.owner}/${ref.repo}`, ref.number));
    return p ? this.info(p) : undefined;
  }

  async openPullsWithHead(repo: string, headRef: string): Promise<PullInfo[]> {
    this.calls.push(`openPullsWithHead ${repo} ${headRef}`);
    // GitHub's `head: owner:branch` filter: branches of the repository's own owner only.
    const owner = splitRepo(repo)?.owner ?? '';
    return [...this.pulls.values()]
      .filter((p) => repoKey(p.repo) === repoKey(repo) && (p.state ?? 'open') === 'open')
      .filter((p) => (p.headRef ?? `branch-${p.number}`) === headRef)
      .filter((p) => repoKey(splitRepo(p.headRepo ?? p.repo)?.owner ?? '') === repoKey(owner))
      .map((p) => this.info(p));
  }

  async searchLinkingPulls(org: string, to: PullRef): Promise<PullRef[] | undefined> {
    this.calls.push(`search ${pullKey(to)}`);
    if (this.searchRefused) return undefined;
    const phrases = [pullKey(to), `${to.owner}/${to.repo}/pull/${to.number}`].map((s) => s.toLowerCase());
    return [...this.pulls.values()]
      .filter(
        (p) => repoKey(splitRepo(p.repo)?.owner ?? '') === repoKey(org) && (p.state ?? 'open') === 'open',
      )
      .filter((p) => phrases.some((ph) => (p.body ?? '').toLowerCase().includes(ph)))
      .map((p) => this.info(p).ref);
  }

  async repo(name: string): Promise<RepoInfo> {
    this.calls.push(`repo ${name}`);
    const r = this.repos.get(name);
    if (!r) throw new MemoryHttpError(404, `no repository ${name}`);
    return repoInfoSchema.parse({
      cloneUrl: `https://github.test/${r.name}.git`,
      defaultBranch: r.defaultBranch,
      visibility: r.visibility,
    });
  }

  async branchTip(repo: string, branch: string): Promise<string> {
    this.calls.push(`branchTip ${repo} ${branch}`);
    return `${'b'.repeat(32)}${String(branch.length).padStart(8, '0')}`;
  }

  async authenticatedCloneUrl(cloneUrl: string): Promise<string> {
    return cloneUrl.replace('https://', 'https://x-access-token:memory@');
  }

  async canWrite(repo: string, login: string): Promise<boolean> {
    this.calls.push(`canWrite ${repo} ${login}`);
    return this.writers.has(`${repoKey(repo)} ${loginKey(login)}`);
  }

  async react(repo: string, commentId: number, content: Reaction): Promise<void> {
    this.reactions.push({ repo, commentId, content });
  }

  async orgConfig(org: string): Promise<OrgConfigLoad> {
    this.calls.push(`orgConfig ${org}`);
    const text = this.configs.get(loginKey(org));
    return text === undefined ? { kind: 'missing' } : parseOrgConfig(text);
  }

  async fetchSuite(): Promise<FetchedSuite> {
    throw new Error('the in-memory GitHub serves no suites: test evaluations over the HTTP stand-in');
  }

  async createQueuedCheck(
    repo: string,
    headSha: string,
    externalId: string,
    _summary: string,
  ): Promise<number> {
    this.calls.push(`createQueuedCheck ${repo} ${headSha}`);
    const id = this.nextCheckId++;
    this.checks.push({ id, repo, headSha, externalId, status: 'queued', title: 'Tandem: queued' });
    return id;
  }

  async reopenCheck(repo: string, checkRunId: number, _summary: string): Promise<void> {
    this.calls.push(`reopenCheck ${repo} ${checkRunId}`);
    const c = this.check(checkRunId);
    c.status = 'queued';
    delete c.conclusion;
    c.title = 'Tandem: queued';
  }

  async completeCheck(repo: string, checkRunId: number, conclusion: CheckConclusion, out: CheckRunOutput) {
    this.calls.push(`completeCheck ${repo} ${checkRunId} ${conclusion}`);
    Object.assign(this.check(checkRunId), { status: 'completed', conclusion, title: out.title });
  }

  async tandemChecksOn(repo: string, headSha: string, externalId: string): Promise<FoundCheckRun[]> {
    this.calls.push(`tandemChecksOn ${repo} ${headSha}`);
    return this.checks
      .filter(
        (c) => repoKey(c.repo) === repoKey(repo) && c.headSha === headSha && c.externalId === externalId,
      )
      .sort((a, b) => b.id - a.id)
      .map((c) => ({ id: c.id, completed: c.status === 'completed' }));
  }

  async markInProgress(repo: string, checkRunId: number, _summary: string): Promise<void> {
    this.calls.push(`markInProgress ${repo} ${checkRunId}`);
    this.check(checkRunId).status = 'in_progress';
  }

  async linkCheck(repo: string, checkRunId: number, link: CheckLink): Promise<void> {
    this.calls.push(`linkCheck ${repo} ${checkRunId}${link.url ? ` ${link.url}` : ''}`);
    const c = this.check(checkRunId);
    Object.assign(c, { status: 'in_progress', title: link.title }, link.url ? { detailsUrl: link.url } : {});
  }

  async dispatchWorkflow(repo: string, workflow: string, ref: string, inputs: Record<string, string>) {
    this.calls.push(`dispatchWorkflow ${repo} ${workflow} ${ref}`);
    this.actions.dispatch(repo, workflow, ref, inputs);
  }

  async workflowRun(repo: string, runId: number): Promise<WorkflowRunInfo | undefined> {
    this.calls.push(`workflowRun ${repo} ${runId}`);
    return this.actions.run(repo, runId);
  }

  async recentWorkflowRuns(repo: string, workflow: string, since: Date): Promise<WorkflowRunInfo[]> {
    this.calls.push(`recentWorkflowRuns ${repo} ${workflow}`);
    return this.actions.recent(repo, workflow, since);
  }

  async runArtifact(repo: string, runId: number, name: string): Promise<Buffer | undefined> {
    this.calls.push(`runArtifact ${repo} ${runId} ${name}`);
    return this.actions.artifact(repo, runId, name);
  }

  private check(id: number): MemoryCheck {
    const c = this.checks.find((x) => x.id === id);
    if (!c) throw new MemoryHttpError(404, `no check run ${id}`);
    return c;
  }

  private keyOf(repo: string, number: number): string {
    return `${repoKey(repo)}#${number}`;
  }

  /** The PR as GitHub's REST API sends it, through the App's parser. */
  private info(p: MemoryPull): PullInfo {
    const base = this.repos.get(p.repo)!;
    const [owner, name] = base.name.split('/') as [string, string];
    const state = p.state ?? 'open';
    return pullInfoOf({
      number: p.number,
      state: state === 'open' ? 'open' : 'closed',
      merged: state === 'merged',
      title: p.title ?? `PR ${p.number}`,
      body: p.body ?? null,
      html_url: `https://github.test/${base.name}/pull/${p.number}`,
      user: { login: p.author ?? 'maintainer' },
      head: {
        sha: p.headSha ?? `${String(p.number).padStart(8, '0')}${'a'.repeat(32)}`,
        ref: p.headRef ?? `branch-${p.number}`,
        repo: { full_name: p.headRepo ?? base.name },
      },
      base: {
        sha: 'c'.repeat(40),
        ref: base.defaultBranch,
        repo: {
          name,
          full_name: base.name,
          owner: { login: owner },
          clone_url: `https://github.test/${base.name}.git`,
          visibility: base.visibility,
        },
      },
    });
  }
}
