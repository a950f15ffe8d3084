/**
 * A Multi-SWE-bench row as published: `org`, `repo` (the name alone), `number`, `base {label,
 * ref, sha}`, `fix_patch`, `test_patch`, `resolved_issues`, and the test maps `f2p_tests`,
 * `p2p_tests`, `n2p_tests`, `s2p_tests`, `fixed_tests` (test name → `{run, test, fix}`). Read
 * as a one-repository instance: FAIL_TO_PASS is every test that must pass after the fix and did
 * not before (f2p, s2p: was skipped), PASS_TO_PASS the p2p tests. N2P tests (none before: the
 * test patch adds them) are neither: a new test that passes without the fix says nothing about
 * it, so counting it would give a no-op patch a fix rate above 0. They are kept in
 * `metadata.n2p_tests`; `n2pAsFailToPass` (the CLI's `--n2p-as-f2p`) counts them as F2P.
 */
import { z } from 'zod';
import { instanceIdSchema } from './bench-instance.schema.ts';

const testMapSchema = z
  .record(z.string(), z.object({ run: z.string(), test: z.string(), fix: z.string() }).loose())
  .default({});

export const multiSweBenchRowSchema = z
  .object({
    instance_id: instanceIdSchema.optional(),
    org: z.string().min(1, 'expected the organization (owner) of the repository'),
    repo: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'expected the repository name alone (without its owner)'),
    number: z.coerce.number().int().positive(),
    base: z
      .object({ label: z.string().optional(), ref: z.string().optional(), sha: z.string().min(1) })
      .loose(),
    fix_patch: z.string(),
    test_patch: z.string().optional(),
    title: z.string().optional(),
    body: z.string().nullish(),
    resolved_issues: z
      .array(
        z
          .object({ number: z.number().optional(), title: z.string().nullish(), body: z.string().nullish() })
          .loose(),
      )
      .default([]),
    f2p_tests: testMapSchema,
    p2p_tests: testMapSchema,
    n2p_tests: testMapSchema,
    s2p_tests: testMapSchema,
    fixed_tests: testMapSchema,
  })
  .loose();

export type MultiSweBenchRow = z.infer<typeof multiSweBenchRowSchema>;

/** Whether a parsed JSON row is in Multi-SWE-bench's shape (`org`, `number`, `fix_patch`). */
export function isMultiSweBenchRow(row: unknown): boolean {
  return typeof row === 'object' && row !== null && 'org' in row && 'number' in row && 'fix_patch' in row;
}

/** Fields read into the instance; the rest (language, hints…) goes to metadata, results excepted. */
const READ = new Set([...Object.keys(multiSweBenchRowSchema.shape), 'url', 'suite']);
const DROPPED = /_result$/;

export interface MultiSweBenchReading {
  /** Count `n2p_tests` as FAIL_TO_PASS (default: neither list). */
  n2pAsFailToPass?: boolean;
}

export function multiSweBenchRowToInstance(
  row: MultiSweBenchRow,
  reading: MultiSweBenchReading = {},
): {
  instance_id: string;
  repo: string;
  base_commit: string;
  patch: string;
  test_patch?: string;
  problem_statement: string;
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
  metadata: Record<string, unknown>;
} {
  const issues = row.resolved_issues
    .map((i) => [i.title, i.body].filter((t) => t?.trim()).join('\n\n'))
    .filter((t) => t !== '');
  const problem = issues.length
    ? issues.join('\n\n')
    : [row.title, row.body].filter((t) => t?.trim()).join('\n\n');
  const n2p = Object.keys(row.n2p_tests);
  const extra = Object.fromEntries(Object.entries(row).filter(([k]) => !READ.has(k) && !DROPPED.test(k)));
  return {
    instance_id: row.instance_id ?? `${row.org}__${row.repo}-${row.number}`,
    repo: `${row.org}/${row.repo}`,
    base_commit: row.base.sha,
    patch: row.fix_patch,
    ...(row.test_patch !== undefined ? { test_patch: row.test_patch } : {}),
    problem_statement: problem,
    FAIL_TO_PASS: [
      ...Object.keys(row.f2p_tests),
      ...(reading.n2pAsFailToPass ? Object.keys(row.n2p_tests) : []),
      ...Object.keys(row.s2p_tests),
    ],
    PASS_TO_PASS: Object.keys(row.p2p_tests),
    metadata: {
      source: 'multi-swe-bench',
      number: row.number,
      ...(row.base.label ? { base_label: row.base.label } : {}),
      ...(row.base.ref ? { base_ref: row.base.ref } : {}),
      ...(!reading.n2pAsFailToPass && n2p.length ? { n2p_tests: n2p } : {}),
      ...extra,
    },
  };
}
