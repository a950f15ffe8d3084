import { z } from 'zod';

/** What one test did in one run. `error` (errored, not asserted) grades like `failed`. */
export const testStatusSchema = z.enum(['passed', 'failed', 'skipped', 'error']);

export const testResultSchema = z.object({
  /** `<group>::<classname>::<name>`, stable across runs (see test-id.ts). */
  id: z.string(),
  status: testStatusSchema,
  message: z.string().optional(),
  durationMs: z.number().optional(),
});

/**
 * How a test group's command ended. `reported`: its result file was read. `crashed`: it ended
 * without writing the result file. `timeout` / `oom`: killed at the suite's limits.
 * `setup-failed`: a setup step failed, so the group did not run. `not-run`: the configuration's
 * own timeout or an abort stopped the run before this group. `broken`: its result file holds no
 * real test result and the command exited non-zero (the tests did not build, collect or load, or
 * the runner died before the first one): no test ran (core/unrunnable-tests.ts).
 */
export const groupStatusSchema = z.enum([
  'reported',
  'crashed',
  'timeout',
  'oom',
  'setup-failed',
  'not-run',
  'broken',
]);

export const groupRunSchema = z.object({
  name: z.string(),
  repo: z.string().optional(),
  status: groupStatusSchema,
  exitCode: z.number().nullable(),
  durationMs: z.number(),
  /** Why the group failed as a whole, when it did. */
  reason: z.string().optional(),
  /** The tail of the command's output, capped. Never leaves the evaluator unless allowed. */
  outputTail: z.string().optional(),
  /**
   * The group's command exited non-zero while its result file says every test passed: a
   * contradiction worth a look (a runner that lies, or a file that is not this run's).
   */
  failedExitAllPassed: z.boolean().optional(),
  tests: z.array(testResultSchema),
});

/** Infrastructure trouble: never a pass, never a fail. */
export const infraErrorKindSchema = z.enum([
  'fetch',
  'unknown-ref',
  'merge-conflict',
  'patch-failed',
  'image-missing',
  'engine',
  'prepare',
  'result-unparseable',
  'hidden-files',
  'aborted',
]);

export const infraErrorSchema = z.object({
  kind: infraErrorKindSchema,
  message: z.string(),
  /** The target (owner/name) at fault, when one is. */
  target: z.string().optional(),
  configuration: z.string().optional(),
  /** Files involved (conflicting paths, rejected hunks), never hidden files. */
  files: z.array(z.string()).optional(),
});

export const stepRunSchema = z.object({
  name: z.string(),
  exitCode: z.number().nullable(),
  durationMs: z.number(),
  timedOut: z.boolean(),
  oomKilled: z.boolean(),
  outputTail: z.string().optional(),
});

/** One run of one configuration: the engine's raw output, graded later by core/grading. */
export const configurationRunSchema = z.object({
  id: z.string(),
  applied: z.array(z.string()),
  /** 0 for the first run; reruns of the full configuration count up from 1. */
  attempt: z.number().int().nonnegative(),
  setup: z.array(stepRunSchema),
  groups: z.array(groupRunSchema),
  infraError: infraErrorSchema.optional(),
  /** The content-addressed key this result is cached under. */
  cacheKey: z.string().optional(),
  cached: z.boolean().default(false),
  durationMs: z.number(),
});

export type TestStatus = z.infer<typeof testStatusSchema>;
export type TestResult = z.infer<typeof testResultSchema>;
export type GroupStatus = z.infer<typeof groupStatusSchema>;
export type GroupRun = z.infer<typeof groupRunSchema>;
export type InfraErrorKind = z.infer<typeof infraErrorKindSchema>;
export type InfraErrorInfo = z.infer<typeof infraErrorSchema>;
export type StepRun = z.infer<typeof stepRunSchema>;
export type ConfigurationRun = z.infer<typeof configurationRunSchema>;
