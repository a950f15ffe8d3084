/**
 * What the member-by-member `/tandem merge` reads and does on the in-memory GitHub port
 * (memory-github.ts): a PR as it is now (`mergeable`, draft, its merge commit), the checks a
 * base branch requires and those on a head, branch rules and what they need of a PR, and the
 * merge with GitHub's refusals (404 gone, 405 not mergeable or a required check not passing,
 * 409 head moved), worded by the App's own `refusalReason` as the Octokit adapter words them.
 */
import type { HeadChecks, LiveMember } from '../../src/app/port/github-port.ts';
import type { MemberFacts, MergeRules } from '../../src/core/merge-rules.ts';
import { type PullRef, pullKey } from '../../src/core/pull-ref.ts';
import { repoKey } from '../../src/core/repo-name.ts';
import { judgeRequiredChecks } from '../../src/core/required-checks.ts';
import { type MergeAnswer, refusalReason } from '../../src/github/merge-pulls.ts';

/** The parts of a stored PR a merge reads and changes (memory-github.ts's `MemoryPull`). */
export interface MergeablePull {
  state?: 'open' | 'closed' | 'merged';
  headSha?: string;
  draft?: boolean;
  /** GitHub's `mergeable` (false: conflicts with its base); true while open when unset. */
  mergeable?: boolean | null;
  mergeSha?: string;
}

type HeadCheck = HeadChecks['runs'][number];

export class MemoryMerges {
  private readonly required = new Map<string, string[]>();
  private readonly rules = new Map<string, MergeRules>();
  private readonly facts = new Map<string, MemberFacts>();
  private readonly runs: Array<HeadCheck & { repo: string; sha: string }> = [];
  private readonly statuses: Array<{ repo: string; sha: string; context: string; state: string }> = [];
  private nextRunId = 10_000;

  constructor(
    private readonly pullOf: (
      ref: PullRef,
    ) => (MergeablePull & { baseRef: string; headSha: string }) | undefined,
    /** The port's own `Tandem` checks on a head (they count among its check runs). */
    private readonly tandemRuns: (repo: string, sha: string) => HeadCheck[],
  ) {}

  /** `branch` of `repo` requires `contexts` (branch protection or a ruleset) before a merge. */
  requireChecks(repo: string, branch: string, contexts: string[]): this {
    this.required.set(`${repoKey(repo)} ${branch}`, contexts);
    return this;
  }

  /** A check run on `sha` (completed with `conclusion`, or still `in_progress` when null). */
  addCheckRun(repo: string, sha: string, name: string, conclusion: string | null): this {
    const status = conclusion === null ? 'in_progress' : 'completed';
    this.runs.push({ id: this.nextRunId++, repo, sha, name, status, conclusion });
    return this;
  }

  /** A commit status on `sha` (`success`, `failure`, `pending`, …). */
  addStatus(repo: string, sha: string, context: string, state: string): this {
    this.statuses.push({ repo, sha, context, state });
    return this;
  }

  /** The rules a merge into `branch` of `repo` must meet (none when unset). */
  setRules(repo: string, branch: string, rules: Partial<MergeRules>): this {
    const none = { approvals: 0, codeOwners: false, signatures: false, mergeQueue: false };
    this.rules.set(`${repoKey(repo)} ${branch}`, { ...none, ...rules });
    return this;
  }

  /** What GitHub says of a PR that its rules need (approvers, …). */
  setFacts(ref: PullRef, facts: Partial<MemberFacts>): this {
    this.facts.set(pullKey(ref), { approvers: [], ownersByFile: [], unsignedCommits: [], ...facts });
    return this;
  }

  livePull(ref: PullRef): LiveMember | undefined {
    const p = this.pullOf(ref);
    if (!p) return undefined;
    const state = p.state ?? 'open';
    const mergeable = state === 'open' ? (p.mergeable ?? true) : null;
    return {
      state,
      headSha: p.headSha,
      draft: p.draft ?? false,
      mergeable,
      mergeableState: state !== 'open' ? 'unknown' : mergeable === false ? 'dirty' : 'clean',
      baseRef: p.baseRef,
      mergeCommitSha: p.mergeSha ?? null,
    };
  }

  mergeRules(repo: string, branch: string): MergeRules {
    return (
      this.rules.get(`${repoKey(repo)} ${branch}`) ?? {
        approvals: 0,
        codeOwners: false,
        signatures: false,
        mergeQueue: false,
      }
    );
  }

  memberFacts(ref: PullRef): MemberFacts {
    return this.facts.get(pullKey(ref)) ?? { approvers: [], ownersByFile: [], unsignedCommits: [] };
  }

  requiredChecks(repo: string, branch: string): string[] {
    return [...(this.required.get(`${repoKey(repo)} ${branch}`) ?? [])];
  }

  /** The latest run of each name, as `filter: latest` answers, and the statuses. */
  checksOn(repo: string, sha: string): HeadChecks {
    const all = [
      ...this.tandemRuns(repo, sha),
      ...this.runs.filter((r) => repoKey(r.repo) === repoKey(repo) && r.sha === sha),
    ].sort((a, b) => b.id - a.id);
    const runs = all
      .filter((r, i) => all.findIndex((o) => o.name === r.name) === i)
      .map(({ id, name, status, conclusion }) => ({ id, name, status, conclusion }));
    const statuses = this.statuses
      .filter((s) => repoKey(s.repo) === repoKey(repo) && s.sha === sha)
      .reverse()
      .map(({ context, state }) => ({ context, state }));
    return { runs, statuses };
  }

  merge(ref: PullRef, sha: string): MergeAnswer {
    const refuse = (status: number, message: string): MergeAnswer => ({
      merged: false,
      status,
      reason: refusalReason(status, message),
    });
    const p = this.pullOf(ref);
    if (!p) return refuse(404, 'Not Found');
    if ((p.state ?? 'open') !== 'open' || p.mergeable === false)
      return refuse(405, 'Pull Request is not mergeable');
    if (p.headSha !== sha) return refuse(409, 'Head branch was modified. Review and try the merge again.');
    const repo = `${ref.owner}/${ref.repo}`;
    const { runs, statuses } = this.checksOn(repo, sha);
    const judged = judgeRequiredChecks(this.requiredChecks(repo, p.baseRef), runs, statuses);
    const blocking = judged.checks.find((c) => c.state !== 'passing');
    // GitHub's words for a required check that is not passing (as the stand-in says them).
    const word = { failing: 'failing', pending: 'in progress', expected: 'expected', passing: '' };
    if (blocking)
      return refuse(405, `Required status check "${blocking.context}" is ${word[blocking.state]}.`);
    p.state = 'merged';
    p.mergeSha = `${'e'.repeat(32)}${String(ref.number).padStart(8, '0')}`;
    return { merged: true, sha: p.mergeSha };
  }
}
