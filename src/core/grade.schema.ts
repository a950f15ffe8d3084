import { z } from 'zod';
import { resolvedMatrixModeSchema } from './matrix-mode.ts';
import { infraErrorSchema } from './run.schema.ts';

/** A test's status in a graded configuration: `missing` (never reported) grades as failed. */
export const gradedStatusSchema = z.enum(['passed', 'failed', 'skipped', 'error', 'missing']);

export const gradedTestSchema = z.object({
  id: z.string(),
  kind: z.enum(['F2P', 'P2P']),
  status: gradedStatusSchema,
  /** Why it did not pass (assertion message, or the group's crash/timeout reason). */
  reason: z.string().optional(),
});

export const configurationOutcomeSchema = z.enum(['pass', 'fail', 'error']);

export const gradedConfigurationSchema = z.object({
  id: z.string(),
  applied: z.array(z.string()),
  role: z.enum(['base', 'partial', 'full']),
  outcome: configurationOutcomeSchema,
  /** Expected tests passing / expected tests. */
  passed: z.number().int(),
  total: z.number().int(),
  f2p: z.object({ passed: z.number().int(), total: z.number().int() }),
  p2p: z.object({ passed: z.number().int(), total: z.number().int() }),
  cached: z.boolean(),
  runs: z.number().int(),
  durationMs: z.number(),
  tests: z.array(gradedTestSchema),
  groups: z.array(
    z.object({
      name: z.string(),
      repo: z.string().optional(),
      status: z.string(),
      exitCode: z.number().nullable(),
      durationMs: z.number(),
      reason: z.string().optional(),
      /** The group's command failed while its result file says every test passed (run.schema.ts). */
      failedExitAllPassed: z.boolean().optional(),
    }),
  ),
  error: infraErrorSchema.optional(),
});

export const repoMetricsSchema = z.object({
  repo: z.string(),
  f2p: z.object({ passed: z.number().int(), total: z.number().int() }),
  p2p: z.object({ passed: z.number().int(), total: z.number().int() }),
  f2pComplete: z.boolean(),
  p2pPreserved: z.boolean(),
  success: z.boolean(),
});

export const verdictSchema = z.object({
  resolved: z.boolean(),
  /** null when an infrastructure error left a needed configuration without an outcome. */
  jointlyNecessary: z.boolean().nullable(),
  /** `leave-one-out`: judged on base, full and full-minus-each only. */
  jointlyNecessaryBasis: resolvedMatrixModeSchema,
  unnecessary: z.array(z.string()),
  fixRate: z.number().min(0).max(1),
});

export const swebenchTestsStatusSchema = z.object({
  FAIL_TO_PASS: z.object({ success: z.array(z.string()), failure: z.array(z.string()) }),
  PASS_TO_PASS: z.object({ success: z.array(z.string()), failure: z.array(z.string()) }),
  FAIL_TO_FAIL: z.object({ success: z.array(z.string()), failure: z.array(z.string()) }),
  PASS_TO_FAIL: z.object({ success: z.array(z.string()), failure: z.array(z.string()) }),
});

/**
 * The evaluator's suite is wrong (core/suite-mistakes.ts): listed ids no configuration ever
 * reported, or an image that does not exist. The outcome is then `error`: not a verdict on the code.
 */
export const invalidSuiteSchema = z.object({
  /** The suite fields at fault: `fail_to_pass`, `pass_to_pass`, `image`. */
  fields: z.array(z.string()),
  /** What is wrong, without test ids. */
  message: z.string(),
  /** Listed ids never reported (faces show them only where `reveal` names tests). */
  unmatched: z.array(z.string()),
});

export const gradeSchema = z.object({
  outcome: z.enum(['resolved', 'unresolved', 'error']),
  /** Present when the outcome is `error` because the suite is wrong, not the machinery. */
  invalidSuite: invalidSuiteSchema.optional(),
  /** Why the outcome is `error`, or what is incomplete. */
  summary: z.string(),
  verdict: verdictSchema,
  tests: z.object({
    failToPass: z.array(z.string()),
    passToPass: z.array(z.string()),
    /** Where the lists came from: the suite, or the all-base run's classification. */
    source: z.object({
      failToPass: z.enum(['suite', 'base-run']),
      passToPass: z.enum(['suite', 'base-run']),
    }),
    /** Tests skipped on base when classifying: neither F2P nor P2P. */
    ignored: z.array(z.string()),
    /**
     * How many test ids only runs of PR code reported (not the all-base run, not the suite's
     * lists): never F2P or P2P, never listed by name. 0 in reports written before it was counted.
     */
    seenOnlyWithPr: z.number().int().nonnegative().default(0),
  }),
  configurations: z.array(gradedConfigurationSchema),
  repositories: z.array(repoMetricsSchema),
  flaky: z.array(z.object({ id: z.string(), statuses: z.array(z.string()) })),
  infraErrors: z.array(infraErrorSchema),
  patch_successfully_applied: z.boolean(),
  resolved: z.boolean(),
  tests_status: swebenchTestsStatusSchema,
});

export type GradedStatus = z.infer<typeof gradedStatusSchema>;
export type GradedTest = z.infer<typeof gradedTestSchema>;
export type GradedConfiguration = z.infer<typeof gradedConfigurationSchema>;
export type ConfigurationOutcome = z.infer<typeof configurationOutcomeSchema>;
export type RepoMetrics = z.infer<typeof repoMetricsSchema>;
export type Grade = z.infer<typeof gradeSchema>;
export type InvalidSuite = z.infer<typeof invalidSuiteSchema>;
