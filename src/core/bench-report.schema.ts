/**
 * What benchmark mode writes: the per-prediction `report.json` (keyed by instance id, SWE-bench's
 * fields with Tandem's beside them under `tandem`) and the run summary
 * (`<model>.<run-id>.json`, SWE-bench's fields plus the papers' metrics).
 */
import { z } from 'zod';
import { repoMetricsSchema, swebenchTestsStatusSchema } from './grade.schema.ts';
import { reportSchema } from './report.schema.ts';

export const BENCH_SCHEMA_VERSION = 2;

export const predictionOutcomeSchema = z.enum(['resolved', 'unresolved', 'empty-patch', 'error']);

export const diagnosisLabelSchema = z.enum([
  'missed-repository',
  'wrong-in-repo',
  'cross-repo-inconsistency',
  'regression',
]);

export const diagnosisSchema = z.object({
  labels: z.array(z.object({ kind: diagnosisLabelSchema, repo: z.string().optional() })),
  /** Swap configurations: the prediction in `repo`, gold in the others. */
  swaps: z.array(z.object({ repo: z.string(), outcome: z.enum(['pass', 'fail', 'error', 'not-applied']) })),
});

export const repoApplySchema = z.object({
  repo: z.string(),
  /** Whether the prediction changes this repository at all. */
  changed: z.boolean(),
  applied: z.boolean(),
  method: z.string().optional(),
  message: z.string().optional(),
  files: z.array(z.string()).optional(),
});

export const tandemInstanceResultSchema = z.object({
  instance_id: z.string(),
  model_name_or_path: z.string(),
  outcome: predictionOutcomeSchema,
  repo_count: z.number().int(),
  /** From the instance's `metadata.languages`, when given. */
  languages: z.array(z.string()).optional(),
  apply: z.array(repoApplySchema),
  /** false: the test patch could not be laid over the candidate (never resolved). */
  test_patch_injected: z.boolean(),
  f2p: z.object({ passed: z.number().int(), total: z.number().int() }),
  p2p: z.object({ passed: z.number().int(), total: z.number().int() }),
  fix_rate: z.number(),
  repositories: z.array(repoMetricsSchema),
  diagnosis: diagnosisSchema.optional(),
  /** Machinery failures (after retries): an error instance, not resolved in every metric. */
  errors: z.array(z.string()),
  /** With `--attempts K`: whether each attempt resolved (the SWE-bench fields are attempt 1's). */
  attempts_resolved: z.array(z.boolean()).optional(),
  /** Listed tests that no run reported: how many, examples of both sides, the mapping setting. */
  names_warning: z.string().optional(),
  /** Tests that differ between configurations holding their repository's same state. */
  matrix_flaky: z
    .array(z.object({ id: z.string(), statuses: z.array(z.string()), configurations: z.array(z.string()) }))
    .optional(),
  attempts: z.number().int(),
  duration_ms: z.number(),
  report: reportSchema.omit({ partial: true }).optional(),
});

export const instanceReportEntrySchema = z.object({
  patch_is_None: z.boolean(),
  patch_exists: z.boolean(),
  patch_successfully_applied: z.boolean(),
  resolved: z.boolean(),
  tests_status: swebenchTestsStatusSchema,
  tandem: tandemInstanceResultSchema,
});

export const instanceReportSchema = z.record(z.string(), instanceReportEntrySchema);

const rateSchema = z.object({ total: z.number().int(), resolved: z.number().int(), rate: z.number() });

export const runSummarySchema = z.object({
  // SWE-bench's fields, same names and meaning.
  total_instances: z.number().int(),
  submitted_instances: z.number().int(),
  completed_instances: z.number().int(),
  resolved_instances: z.number().int(),
  unresolved_instances: z.number().int(),
  empty_patch_instances: z.number().int(),
  error_instances: z.number().int(),
  completed_ids: z.array(z.string()),
  incomplete_ids: z.array(z.string()),
  empty_patch_ids: z.array(z.string()),
  submitted_ids: z.array(z.string()),
  resolved_ids: z.array(z.string()),
  unresolved_ids: z.array(z.string()),
  error_ids: z.array(z.string()),
  schema_version: z.number().int(),
  // Tandem's additions.
  model_name_or_path: z.string(),
  run_id: z.string(),
  metrics: z.object({
    /** WideSWE case success: resolved / total instances. */
    case_success: z.number(),
    /** WideSWE, over (instance, repository) pairs with per-repository tests. */
    repository_success: z.number(),
    f2p_complete_repositories: z.number(),
    p2p_preserved_repositories: z.number(),
    /** SWE-EVO fix rate, averaged over every instance with a prediction (an error counts 0). */
    fix_rate: z.number(),
    /** Non-empty predictions whose every repository patch applied. */
    patch_apply_rate: z.number(),
    by_repo_count: z.record(z.string(), rateSchema),
    by_language_count: z.record(z.string(), rateSchema),
    diagnosis: z.record(z.string(), z.number().int()),
    /** Wilson 95% interval of case_success (resolved / total instances). */
    case_success_ci95: z.object({ low: z.number(), high: z.number() }),
    /** Attempts per prediction (`--attempts`), and pass@1 / pass@k (k = attempts) over all instances. */
    attempts: z.number().int(),
    pass_at_1: z.number(),
    pass_at_k: z.number(),
  }),
});

export type PredictionOutcome = z.infer<typeof predictionOutcomeSchema>;
export type Diagnosis = z.infer<typeof diagnosisSchema>;
export type DiagnosisLabel = z.infer<typeof diagnosisLabelSchema>;
export type RepoApply = z.infer<typeof repoApplySchema>;
export type TandemInstanceResult = z.infer<typeof tandemInstanceResultSchema>;
export type InstanceReportEntry = z.infer<typeof instanceReportEntrySchema>;
export type InstanceReport = z.infer<typeof instanceReportSchema>;
export type RunSummary = z.infer<typeof runSummarySchema>;
