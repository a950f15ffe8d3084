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
 * Sticky comments are kept in `comments` (one per PR and marker, as GitHub shows them); what
 * `/tandem merge` reads and does is in `merges` (memory-merges.ts). Not served: suites
 * (`fetchSuite`) and the linked-set merge queue (it takes an Octokit client): tests of those go
 * through the HTTP stand-in (test/support/github-standin).
 */

import {
  type CheckLink,
  type CommentWrite,
  type FoundCheckRun,
  type GitHubPort,
  type HeadChecks,
  type LiveMember,
  type Reaction,
  type RepoInfo,
  repoInfoSchema,
} from '../../src/app/port/github-port.ts';
import type { CheckRunOutput } from '../../src/core/check-run-output.ts';
import type { MemberFacts, MergeRules } from '../../src/core/merge-rules.ts';
import { type PullRef, pullKey } from '../../src/core/pull-ref.ts';
import { type PullInfo, pullInfoOf } from '../../src/core/pull-request.schema.ts';
import { loginKey, RepoMap, repoKey, splitRepo } from '../../src/core/repo-name.ts';
import type { RepoVisibility } from '../../src/core/repo-visibility.ts';
import type { WorkflowRunInfo } from '../../src/github/actions.ts';
import type { CheckConclusion } from '../../src/github/check-runs.ts';
import type { MergeAnswer } from '../../src/github/merge-pulls.ts';
import { type OrgConfigLoad, parseOrgConfig } from '../../src/github/org-config.ts';
import { COMMENT_MARKER, stickyBody } from '../../src/github/sticky-comment.ts';
import type { FetchedSuite } from '../../src/github/suite-fetch.ts';
import { MemoryActions } from './memory-actions.ts';
import { MemoryMerges, type MergeablePull } from './memory-merges.ts';

export interface MemoryPull extends MergeablePull {
  /** `owner/name` of the base repository (added with `addRepo` first). */
  repo: string;
  number: number;
  title?: string;
  body?: string;
  author?: string;
  headRef?: string;
  /** Where the head branch lives (a fork's `owner/name`); the base repository when unset. */
  headRepo?: string;
  /** The branch it targets; the repository's default branch when unset. */
  baseRef?: string;
}

/** This App's comment on a PR, as GitHub shows it (the body carries its marker). */
export interface MemoryComment {
  id: number;
  pull: string;
  marker: string;
  body: string;
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
  /** The completed check's summary, and whether it offers GitHub's Re-run button. */
  summary?: string;
  rerunOffered?: boolean;
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

type StoredPull = MemoryPull & { headSha: string; baseRef: string };

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
  readonly comments: MemoryComment[] = [];
  readonly merges = new MemoryMerges(
    (ref) => this.pulls.get(this.keyOf(`${ref.owner}/${ref.repo}`, ref.number)) as StoredPull | undefined,
    (repo, sha) =>
      this.checks
        .filter((c) => repoKey(c.repo) === repoKey(repo) && c.headSha === sha)
        .map((c) => ({ id: c.id, name: 'Tandem', status: c.status, conclusion: c.conclusion ?? null })),
  );
  private readonly repos = new RepoMap<StoredRepo>();
  private readonly pulls = new Map<string, StoredPull>();
  private readonly writers = new Set<string>();
  private readonly configs = new Map<string, string>();
  private nextCheckId = 1;
  /** Search answers 422 (the App then has no answer to remember). */
  searchRefused = false;

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
    const base = this.repos.get(p.repo);
    if (!base) throw new Error(`addRepo(${p.repo}) first`);
    const stored: StoredPull = {
      ...p,
      headSha: p.headSha ?? `${String(p.number).padStart(8, '0')}${'a'.repeat(32)}`,
      baseRef: p.baseRef ?? base.defaultBranch,
    };
    this.pulls.set(this.keyOf(p.repo, p.number), stored);
    return this.info(stored);
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

  async completeCheck(
    repo: string,
    checkRunId: number,
    conclusion: CheckConclusion,
    out: CheckRunOutput,
    opts: { rerunAction?: boolean } = {},
  ) {
    this.calls.push(`completeCheck ${repo} ${checkRunId} ${conclusion}`);
    Object.assign(this.check(checkRunId), {
      status: 'completed',
      conclusion,
      title: out.title,
      summary: out.summary,
      rerunOffered: opts.rerunAction === true,
    });
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

  async updateCheckOutput(repo: string, checkRunId: number, out: { title: string }): Promise<void> {
    this.calls.push(`updateCheckOutput ${repo} ${checkRunId}`);
    this.check(checkRunId).title = out.title;
  }

  async upsertComment(pull: PullRef, content: string, marker = COMMENT_MARKER): Promise<CommentWrite> {
    const key = pullKey(pull);
    if (!this.pulls.has(this.keyOf(`${pull.owner}/${pull.repo}`, pull.number)))
      throw new MemoryHttpError(404, `no pull request ${key}`);
    const body = stickyBody(content, marker);
    const found = this.comments.find((c) => c.pull === key && c.marker === marker);
    const action = !found ? 'created' : found.body === body ? 'unchanged' : 'updated';
    this.calls.push(`upsertComment ${key} ${action}`);
    if (found) found.body = body;
    else this.comments.push({ id: this.comments.length + 1, pull: key, marker, body });
    return { id: found?.id ?? this.comments.length, action };
  }

  async livePull(ref: PullRef): Promise<LiveMember | undefined> {
    this.calls.push(`livePull ${pullKey(ref)}`);
    return this.merges.livePull(ref);
  }

  async mergeRules(repo: string, branch: string): Promise<MergeRules> {
    return this.merges.mergeRules(repo, branch);
  }

  async memberFacts(ref: PullRef): Promise<MemberFacts> {
    return this.merges.memberFacts(ref);
  }

  async requiredChecks(repo: string, branch: string): Promise<string[]> {
    return this.merges.requiredChecks(repo, branch);
  }

  async checksOn(repo: string, sha: string): Promise<HeadChecks> {
    return this.merges.checksOn(repo, sha);
  }

  async mergePull(ref: PullRef, sha: string): Promise<MergeAnswer> {
    const answer = this.merges.merge(ref, sha);
    this.calls.push(`mergePull ${pullKey(ref)} ${answer.merged ? 'merged' : 'refused'}`);
    return answer;
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
  private info(p: StoredPull): PullInfo {
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
        sha: p.headSha,
        ref: p.headRef ?? `branch-${p.number}`,
        repo: { full_name: p.headRepo ?? base.name },
      },
      base: {
        sha: 'c'.repeat(40),
        ref: p.baseRef,
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
