/**
 * What `/tandem merge` reads of GitHub to honour a member's branch rules (core/merge-rules.ts):
 * the branch's rulesets and, where the App may read it, its branch protection; then only what
 * those rules need of the PR — its reviews and who of the reviewers may write, its changed files
 * and the base branch's CODEOWNERS, its commits' signatures. Answers are checked with zod.
 */
import { z } from 'zod';
import {
  branchRuleSchema,
  codeOwnersOf,
  type MemberFacts,
  type MergeRules,
  mergeRulesOf,
  type Protection,
  protectionSchema,
} from '../core/merge-rules.ts';
import type { PullRef } from '../core/pull-ref.ts';
import type { RepoParts } from '../core/repo-name.ts';
import { type GitHub, httpStatus } from './octokit.ts';
import { readFileText } from './org-config.ts';
import { canWrite } from './permissions.ts';

/** Branch protection, when the App may read it (it needs `administration`, which Tandem does not ask for: 403). */
async function protectionOf(gh: GitHub, repo: RepoParts, branch: string): Promise<Protection | undefined> {
  try {
    const { data } = await gh.rest.repos.getBranchProtection({ ...repo, branch });
    return protectionSchema.parse(data);
  } catch (e) {
    const s = httpStatus(e);
    // Unprotected (404) or not readable (403): GitHub's `mergeable_state` still says `blocked`.
    if (s === 404 || s === 403) return undefined;
    throw e;
  }
}

/** The rules a merge into `branch` must meet, from its rulesets and its protection. */
export async function readMergeRules(gh: GitHub, repo: RepoParts, branch: string): Promise<MergeRules> {
  const [rules, protection] = await Promise.all([
    gh.rest.repos
      .getBranchRules({ ...repo, branch, per_page: 100 })
      .then(({ data }) => z.array(branchRuleSchema).parse(data))
      .catch((e) => {
        if (httpStatus(e) === 404) return [];
        throw e;
      }),
    protectionOf(gh, repo, branch),
  ]);
  return mergeRulesOf(rules, protection);
}

const reviewsSchema = z.array(
  z.object({
    user: z.object({ login: z.string() }).nullable(),
    state: z.string(),
    commit_id: z.string().nullish(),
  }),
);
const filesSchema = z.array(z.object({ filename: z.string() }));
const commitsSchema = z.array(
  z.object({
    sha: z.string(),
    commit: z.object({ verification: z.object({ verified: z.boolean() }).nullish() }),
  }),
);

/** Users whose latest deciding review approves, and who may write to the repository (GitHub counts only those). */
async function approversOf(gh: GitHub, ref: PullRef): Promise<string[]> {
  const repo = { owner: ref.owner, repo: ref.repo };
  const reviews = reviewsSchema.parse(
    await gh.paginate(gh.rest.pulls.listReviews, { ...repo, pull_number: ref.number, per_page: 100 }),
  );
  const latest = new Map<string, string>();
  for (const r of reviews)
    if (r.user && ['APPROVED', 'CHANGES_REQUESTED', 'DISMISSED'].includes(r.state))
      latest.set(r.user.login, r.state);
  const approving = [...latest].filter(([, s]) => s === 'APPROVED').map(([u]) => u);
  const writes = await Promise.all(approving.map((u) => canWrite(gh, repo, u)));
  return approving.filter((_, i) => writes[i]);
}

const CODEOWNERS_PATHS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'];

/** The code owners of each changed file that has any, by the base branch's CODEOWNERS. */
async function ownersByFile(gh: GitHub, ref: PullRef, baseRef: string): Promise<string[][]> {
  let codeowners: string | undefined;
  for (const path of CODEOWNERS_PATHS) {
    codeowners = await readFileText(gh, ref.owner, ref.repo, path, baseRef);
    if (codeowners !== undefined) break;
  }
  if (codeowners === undefined) return [];
  const files = filesSchema.parse(
    await gh.paginate(gh.rest.pulls.listFiles, {
      owner: ref.owner,
      repo: ref.repo,
      pull_number: ref.number,
      per_page: 100,
    }),
  );
  const text = codeowners;
  return files.map((f) => codeOwnersOf(text, f.filename)).filter((o) => o.length > 0);
}

async function unsignedCommits(gh: GitHub, ref: PullRef): Promise<string[]> {
  const commits = commitsSchema.parse(
    await gh.paginate(gh.rest.pulls.listCommits, {
      owner: ref.owner,
      repo: ref.repo,
      pull_number: ref.number,
      per_page: 100,
    }),
  );
  return commits.filter((c) => !c.commit.verification?.verified).map((c) => c.sha);
}

/** What the rules need to know of a member; nothing is read for a rule the branch does not have. */
export async function readMemberFacts(
  gh: GitHub,
  ref: PullRef,
  baseRef: string,
  rules: MergeRules,
): Promise<MemberFacts> {
  const [approvers, owners, unsigned] = await Promise.all([
    rules.approvals > 0 || rules.codeOwners ? approversOf(gh, ref) : [],
    rules.codeOwners ? ownersByFile(gh, ref, baseRef) : [],
    rules.signatures ? unsignedCommits(gh, ref) : [],
  ]);
  return { approvers, ownersByFile: owners, unsignedCommits: unsigned };
}
