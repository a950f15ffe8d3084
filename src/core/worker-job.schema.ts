/**
 * `executor: workers`: what travels between the App and `tandem worker` processes through
 * PostgreSQL. The App stores one bundle per evaluation (the change with its clone URLs, the suite
 * and its hidden files: evaluator-owned data, deleted when the evaluation ends) and enqueues one
 * job per configuration naming it; a worker answers with the partial report of that configuration
 * (the engine's `only`), or with the infrastructure error that kept it from producing one. Each
 * side parses what the other wrote with these schemas. Pure.
 */
import { z } from 'zod';
import { branchTargetSchema, contextRepoSchema } from './case.schema.ts';
import { matrixModeSchema } from './matrix-mode.ts';
import { infraErrorSchema } from './run.schema.ts';
import { suiteSchema } from './suite.schema.ts';

/** The shared queue every worker takes from, and the per-host queue it tries first. */
export const SHARED_QUEUE = 'tandem-configurations';
export const hostQueue = (hostId: string) => `tandem-configurations.host.${hostId}`;
/** Jobs whose retries ran out (a worker died on every attempt): the App records them as infra. */
export const DEAD_QUEUE = 'tandem-configurations.dead';
/** NOTIFY channels: a result was stored (payload: the evaluation key); jobs were sent. */
export const RESULTS_CHANNEL = 'tandem_worker_results';
export const JOBS_CHANNEL = 'tandem_worker_jobs';

/** A host id names a queue and a row: letters, digits, `-`, `_`, `.`. */
export const hostIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'expected letters, digits, ".", "_" or "-" (at most 63)');

/** Hidden files and the suite file travel base64-encoded; together at most this much. */
export const MAX_BUNDLE_FILE_BYTES = 32 * 1024 * 1024;
/** A worker's answer larger than this is refused by the App (an infrastructure error). */
export const MAX_RESULT_BYTES = 16 * 1024 * 1024;
/** A worker's outcome row (its kind, host, infrastructure error) larger than this is not even read. */
export const MAX_OUTCOME_BYTES = 64 * 1024;
/**
 * A claim's lease by default: a worker running a configuration renews it every third of this, so
 * a worker silent this long (dead, frozen, cut off) loses the configuration to another.
 */
export const DEFAULT_LEASE_SECONDS = 60;

export const bundleFileSchema = z
  .object({
    /** Relative to the suite folder, `/`-separated, never leaving it. */
    path: z
      .string()
      .min(1)
      .refine((p) => !p.startsWith('/') && !p.split('/').some((s) => s === '..' || s === ''), {
        message: 'expected a relative path inside the suite folder',
      }),
    base64: z.string(),
  })
  .strict();

/** One evaluation as workers get it. Clone URLs may carry a token: never logged. */
export const workerBundleSchema = z
  .object({
    name: z.string().min(1),
    targets: z.array(branchTargetSchema).min(1),
    context: z.array(contextRepoSchema),
    suite: suiteSchema,
    matrix: matrixModeSchema,
    reruns: z.number().int().min(0).max(20),
    files: z.array(bundleFileSchema),
  })
  .strict();
export type WorkerBundle = z.infer<typeof workerBundleSchema>;

/** A job's payload: which configuration of which evaluation. */
export const workerJobSchema = z
  .object({
    evaluation: z.string().uuid(),
    configuration: z.string().min(1).max(200),
    /** `host`: the copy on the preferred host's queue; `shared`: the copy every worker may take. */
    copy: z.enum(['host', 'shared']),
    /** How often a shared copy was put back because another worker held the configuration. */
    deferrals: z.number().int().min(0).default(0),
  })
  .strict();
export type WorkerJob = z.infer<typeof workerJobSchema>;

/** What a worker stores for a configuration: the partial report (as JSON text), or why there is none. */
export const workerOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('report'), hostId: z.string() }).strict(),
  z.object({ kind: z.literal('infra'), hostId: z.string(), error: infraErrorSchema }).strict(),
]);
export type WorkerOutcome = z.infer<typeof workerOutcomeSchema>;
