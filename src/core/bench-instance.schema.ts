/**
 * A benchmark task instance: a multi-repository superset of a SWE-bench row. One JSON object per
 * line of an instances file. A plain SWE-bench row (one `repo`, `base_commit`, `patch`,
 * `test_patch`) plus a `suite` is accepted too and normalized into a one-repository instance.
 */
import { z } from 'zod';
import { repoNameSchema } from './case.schema.ts';
import { suiteSchema } from './suite.schema.ts';

/** Instance ids become folder names (`runs/<run-id>/<model>/<instance_id>/`). */
export const instanceIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.+@-]+$/, 'expected an id of letters, digits, "_", ".", "+", "@" or "-"')
  .refine((s) => s !== '.' && s !== '..', 'expected an id that is not "." or ".."');

/**
 * SWE-bench's published datasets store the test lists as JSON text (`"[\"a\", \"b\"]"`); both
 * that and a plain list are accepted.
 */
export const testListSchema = z.union([
  z.array(z.string()),
  z.string().transform((s, ctx) => {
    try {
      const v: unknown = JSON.parse(s);
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
    } catch {}
    ctx.addIssue({ code: 'custom', message: 'expected a list of test ids (or its JSON text)' });
    return z.NEVER;
  }),
]);

export const instanceRepoSchema = z
  .object({
    repo: repoNameSchema,
    /** Git URL or local path (relative to the instances file). */
    url: z.string().min(1, 'expected a git URL or a local path'),
    base_commit: z.string().min(1, 'expected a commit SHA (or ref)'),
    /** The gold change of this repository as a unified diff (may be empty for a test-only repo). */
    patch: z.string(),
    /** The evaluator's test changes as a unified diff, overlaid in every configuration. */
    test_patch: z.string().optional(),
  })
  .strict();

export const instanceContextSchema = z
  .object({
    repo: repoNameSchema,
    url: z.string().min(1, 'expected a git URL or a local path'),
    commit: z.string().min(1, 'expected a commit SHA (or ref)'),
  })
  .strict();

const suiteField = z.union([z.string().min(1), suiteSchema], {
  error: (iss) =>
    iss.input === undefined
      ? 'required: a path to a suite file (relative to the instances file), or the suite inline'
      : 'expected a path to a suite file, or the suite inline',
});

export const benchInstanceSchema = z
  .object({
    instance_id: instanceIdSchema,
    problem_statement: z.string().default(''),
    repos: z.array(instanceRepoSchema).min(1, 'an instance needs at least one repository'),
    context: z.array(instanceContextSchema).default([]),
    suite: suiteField,
    /**
     * For an inline suite: the folder its test `files` are relative to, itself relative to the
     * instances file (default: the instances file's folder). `tandem bench validate --out` sets
     * it when it writes an inline suite to another folder.
     */
    suite_dir: z.string().min(1).optional(),
    FAIL_TO_PASS: testListSchema.optional(),
    PASS_TO_PASS: testListSchema.optional(),
    created_at: z.string().optional(),
    /** URLs of the PRs, issues or commits the instance was built from. */
    provenance: z.array(z.string()).default([]),
    metadata: z.record(z.string(), z.unknown()).default({}),
  })
  .strict()
  .superRefine((inst, ctx) => {
    if (inst.suite_dir !== undefined && typeof inst.suite === 'string')
      ctx.addIssue({
        code: 'custom',
        path: ['suite_dir'],
        message: "only an inline suite takes a suite_dir (a suite file's files are relative to that file)",
      });
    const seen = new Set<string>();
    [...inst.repos, ...inst.context].forEach((r, i) => {
      const field = i < inst.repos.length ? ['repos', i, 'repo'] : ['context', i - inst.repos.length, 'repo'];
      if (seen.has(r.repo))
        ctx.addIssue({ code: 'custom', path: field, message: `duplicate repository "${r.repo}"` });
      seen.add(r.repo);
    });
  });

/**
 * A SWE-bench row as published. Its extra fields (`hints_text`, `environment_setup_commit`…) are
 * kept in `metadata`, `version` too; `url` defaults to the suite map's, else the repository on
 * github.com. Without a `suite`, the suite map (`--suites`) picks one by repository and version.
 */
export const sweBenchRowSchema = z
  .object({
    instance_id: instanceIdSchema,
    repo: repoNameSchema,
    url: z.string().min(1).optional(),
    base_commit: z.string().min(1, 'expected a commit SHA'),
    patch: z.string(),
    test_patch: z.string().optional(),
    problem_statement: z.string().default(''),
    suite: suiteField.optional(),
    version: z.union([z.string(), z.number()]).transform(String).optional(),
    FAIL_TO_PASS: testListSchema.optional(),
    PASS_TO_PASS: testListSchema.optional(),
    created_at: z.string().optional(),
  })
  .loose();

export type BenchInstance = z.infer<typeof benchInstanceSchema>;
export type BenchInstanceInput = z.input<typeof benchInstanceSchema>;
export type InstanceRepo = z.infer<typeof instanceRepoSchema>;
export type InstanceContext = z.infer<typeof instanceContextSchema>;
export type SweBenchRow = z.infer<typeof sweBenchRowSchema>;

/** Whether a parsed JSON row is in SWE-bench's one-repository shape (`repo`, no `repos`). */
export function isSweBenchRow(row: unknown): boolean {
  return typeof row === 'object' && row !== null && 'repo' in row && !('repos' in row);
}

const SWE_BENCH_KNOWN = new Set(Object.keys(sweBenchRowSchema.shape));

/**
 * A validated SWE-bench row as a one-repository instance (input form, to validate again), its
 * suite and URL given when the row has none (from the suite map).
 */
export function sweBenchRowToInstance(
  row: SweBenchRow,
  from: { suite?: BenchInstanceInput['suite']; url?: string; suite_dir?: string } = {},
): Omit<BenchInstanceInput, 'suite'> & { suite?: BenchInstanceInput['suite'] } {
  const metadata = Object.fromEntries(Object.entries(row).filter(([k]) => !SWE_BENCH_KNOWN.has(k)));
  const suite = row.suite ?? from.suite;
  return {
    instance_id: row.instance_id,
    problem_statement: row.problem_statement,
    repos: [
      {
        repo: row.repo,
        url: row.url ?? from.url ?? `https://github.com/${row.repo}.git`,
        base_commit: row.base_commit,
        patch: row.patch,
        ...(row.test_patch !== undefined ? { test_patch: row.test_patch } : {}),
      },
    ],
    ...(suite !== undefined ? { suite } : {}),
    ...(row.suite === undefined && from.suite_dir !== undefined && typeof suite === 'object'
      ? { suite_dir: from.suite_dir }
      : {}),
    ...(row.FAIL_TO_PASS ? { FAIL_TO_PASS: row.FAIL_TO_PASS } : {}),
    ...(row.PASS_TO_PASS ? { PASS_TO_PASS: row.PASS_TO_PASS } : {}),
    ...(row.created_at !== undefined ? { created_at: row.created_at } : {}),
    metadata: {
      source: 'swe-bench',
      ...(row.version !== undefined ? { version: row.version } : {}),
      ...metadata,
    },
  };
}
