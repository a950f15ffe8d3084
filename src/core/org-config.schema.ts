/**
 * `tandem.yml` in the organization's `.github` repository (at `.github/tandem.yml`, Probot's
 * convention): where the hidden suites live and which repositories each suite covers.
 */
import { z } from 'zod';
import { DEFAULT_MAX_MEMBERS } from './linked-set.ts';
import { matrixModeSchema } from './matrix-mode.ts';
import { sameRepo, splitRepo } from './repo-name.ts';
import { describeIssues } from './zod-issues.ts';

const repoFullName = z
  .string()
  .refine((n) => splitRepo(n) !== undefined, 'expected a repository like "owner/name"');

export const orgSuiteSchema = z
  .object({
    name: z.string().min(1),
    repos: z.array(repoFullName).min(1, 'a suite covers at least one repository'),
    /** The suite file in the evaluator repository; its hidden files are relative to it. */
    path: z
      .string()
      .min(1)
      .refine(
        (p) => !p.startsWith('/') && !p.split('/').includes('..'),
        'expected a path inside the repository',
      ),
    /**
     * Opt-in: an evaluation triggered from a more public repository may include this suite's
     * more private (private or internal) repositories, and its reports name them. Off, nothing
     * of a more private repository reaches a more public PR.
     */
    share_private: z.boolean().default(false),
  })
  .strict();

/** Where evaluations run with `executor: actions`: the evaluator repository's workflow. */
export const orgActionsSchema = z
  .object({
    /** The workflow file (in `.github/workflows/` of the evaluator) the App dispatches. */
    workflow: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+\.ya?ml$/, 'expected a workflow file name like "tandem.yml"')
      .default('tandem.yml'),
    /** The branch or tag whose workflow runs; default the evaluator's default branch. */
    ref: z.string().min(1).optional(),
    /** A run not completed by then is an infrastructure error (GitHub's own job limit is 6 h). */
    timeout_minutes: z.number().int().min(1).max(4320).default(360),
  })
  .strict();

/** The linked-set merge queue (`/tandem merge`, docs/app.md "Merging the set"). */
export const orgQueueSchema = z
  .object({
    /** How many speculative evaluations (an item on top of the items ahead of it) run at once. */
    speculation: z.number().int().min(1).max(32).default(4),
    /** How often a flaky result (replicates that differ) is run again before it counts as a failure. */
    retries: z.number().int().min(0).max(10).default(2),
    /**
     * Merge member by member through GitHub's merge API instead of queueing (docs/app.md "Merging
     * the set"): for branches whose rules do not let the App move them (a `pull_request` rule
     * without the App as bypass actor), which the queue refuses up front.
     */
    sequential: z.boolean().default(false),
  })
  .strict();

export const orgConfigSchema = z
  .object({
    /** The private repository holding the suites. */
    evaluator: repoFullName,
    suites: z.array(orgSuiteSchema).min(1, 'list at least one suite'),
    matrix: matrixModeSchema.default('auto'),
    /**
     * `counts`: only numbers; `names`: failing test names appear in comments and checks;
     * `messages`: names and the first lines of each failure message (through the leak filter).
     */
    reveal: z.enum(['counts', 'names', 'messages']).default('counts'),
    limits: z
      .object({
        members: z.number().int().min(1).max(32).default(DEFAULT_MAX_MEMBERS),
        repos: z.number().int().min(1).max(32).default(8),
      })
      .strict()
      .default({ members: DEFAULT_MAX_MEMBERS, repos: 8 }),
    /** Opt-in: open PRs with the same head branch name across a suite's repositories are linked. */
    group_by_branch: z.boolean().default(false),
    /**
     * `local`: the App host runs evaluations (Docker); `actions`: the evaluator's workflow does;
     * `workers`: `tandem worker` processes sharing the App's PostgreSQL database (`DATABASE_URL`)
     * run each configuration.
     */
    executor: z.enum(['local', 'actions', 'workers']).default('local'),
    actions: orgActionsSchema.default({ workflow: 'tandem.yml', timeout_minutes: 360 }),
    queue: orgQueueSchema.default({ speculation: 4, retries: 2, sequential: false }),
  })
  .strict()
  .superRefine((config, ctx) => {
    // The evaluator holds the hidden tests: as a covered repository it would be checked out next
    // to PR code (and a PR to it evaluated), so its hidden files would be readable by that code.
    for (const [i, suite] of config.suites.entries())
      for (const [j, repo] of suite.repos.entries())
        if (sameRepo(repo, config.evaluator))
          ctx.addIssue({
            code: 'custom',
            path: ['suites', i, 'repos', j],
            message: `${repo} is the evaluator repository (\`evaluator\`): its hidden tests must never be a repository a suite covers`,
          });
  });

export type OrgConfig = z.infer<typeof orgConfigSchema>;
export type OrgSuite = z.infer<typeof orgSuiteSchema>;
export type OrgActions = z.infer<typeof orgActionsSchema>;
export type OrgQueue = z.infer<typeof orgQueueSchema>;

export type OrgConfigResult = { ok: true; config: OrgConfig } | { ok: false; field: string; message: string };

/** Validates parsed YAML; on failure names the first offending field (`suites[0].repos`). */
export function validateOrgConfig(raw: unknown): OrgConfigResult {
  const parsed = orgConfigSchema.safeParse(raw);
  if (parsed.success) return { ok: true, config: parsed.data };
  const { field, detail } = describeIssues(parsed.error, { schema: orgConfigSchema });
  return { ok: false, field, message: detail };
}

/** The suite covering a repository (case-insensitive), the first one listed wins. */
export function suiteFor(config: OrgConfig, repo: string): OrgSuite | undefined {
  return config.suites.find((s) => s.repos.some((x) => sameRepo(x, repo)));
}
