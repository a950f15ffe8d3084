/**
 * `tandem.yml` in the organization's `.github` repository (at `.github/tandem.yml`, Probot's
 * convention): where the hidden suites live and which repositories each suite covers.
 */
import { z } from 'zod';
import { formatFieldPath } from './errors.ts';
import { matrixModeSchema } from './matrix-plan.ts';

const repoFullName = z
  .string()
  .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'expected a repository like "owner/name"');

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
  })
  .strict();

export const orgConfigSchema = z
  .object({
    /** The private repository holding the suites. */
    evaluator: repoFullName,
    suites: z.array(orgSuiteSchema).min(1, 'list at least one suite'),
    matrix: matrixModeSchema.default('auto'),
    /** `names`: failing test names appear in comments and checks; `counts`: only numbers. */
    reveal: z.enum(['names', 'counts']).default('counts'),
    limits: z
      .object({
        members: z.number().int().min(1).max(32).default(8),
        repos: z.number().int().min(1).max(32).default(8),
      })
      .strict()
      .default({ members: 8, repos: 8 }),
    /** Opt-in: open PRs with the same head branch name across a suite's repositories are linked. */
    group_by_branch: z.boolean().default(false),
  })
  .strict();

export type OrgConfig = z.infer<typeof orgConfigSchema>;
export type OrgSuite = z.infer<typeof orgSuiteSchema>;

export type OrgConfigResult = { ok: true; config: OrgConfig } | { ok: false; field: string; message: string };

/** Validates parsed YAML; on failure names the first offending field (`suites[0].repos`). */
export function validateOrgConfig(raw: unknown): OrgConfigResult {
  const parsed = orgConfigSchema.safeParse(raw);
  if (parsed.success) return { ok: true, config: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, field: formatFieldPath(issue.path), message: issue.message };
}

/** The suite covering a repository (case-insensitive), the first one listed wins. */
export function suiteFor(config: OrgConfig, repo: string): OrgSuite | undefined {
  const r = repo.toLowerCase();
  return config.suites.find((s) => s.repos.some((x) => x.toLowerCase() === r));
}
