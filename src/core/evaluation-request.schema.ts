/**
 * One evaluation request: the change to judge and every option of the run, as the engine takes
 * them. Every face (CLI, Action, the App's local executor) builds it through one builder
 * (`src/engine/evaluation-request.ts`), so defaults — jobs from CPUs and memory, the prepare
 * network, the CA bundle — are the same wherever Tandem runs. Pure.
 */
import { z } from 'zod';
import { caseFileSchema } from './case.schema.ts';
import { matrixModeSchema } from './matrix-mode.ts';
import { shardSchema } from './shard-plan.ts';
import { suiteSchema } from './suite.schema.ts';

export const sandboxKindSchema = z.enum(['docker', 'process']);

/** Most extra runs of the full configuration, and most parallel configurations. */
export const MAX_RERUNS = 20;
export const MAX_JOBS = 64;

/** What a face may set; anything left out gets the builder's default. */
export const evaluationSettingsSchema = z
  .object({
    matrix: matrixModeSchema.default('auto'),
    reruns: z.number().int().min(0).max(MAX_RERUNS).default(0),
    jobs: z.number().int().min(1).max(MAX_JOBS).optional(),
    cacheDir: z.string().min(1).optional(),
    workDir: z.string().min(1).optional(),
    /** false: bypass the result cache (states and mirrors are still reused). */
    useResultCache: z.boolean().default(true),
    sandbox: sandboxKindSchema.default('docker'),
    /** Docker network for `prepare`; detected when left out (`bridge`, or `host` without one). */
    prepareNetwork: z.string().min(1).optional(),
    /** CA bundle for prepare containers; the host's when left out. */
    caBundle: z.string().min(1).optional(),
    /** Run only this share of the matrix (a partial report). */
    shard: shardSchema.optional(),
  })
  .strict();
export type EvaluationSettings = z.input<typeof evaluationSettingsSchema>;

/** The options the engine runs with: every default decided. */
export const evaluationOptionsSchema = z
  .object({
    matrix: matrixModeSchema,
    reruns: z.number().int().min(0).max(MAX_RERUNS),
    jobs: z.number().int().min(1).max(MAX_JOBS),
    cacheDir: z.string().min(1),
    workDir: z.string().min(1).optional(),
    useResultCache: z.boolean(),
    sandbox: sandboxKindSchema,
    prepareNetwork: z.string().min(1),
    caBundle: z.string().min(1).optional(),
    /** Configuration ids of a shard; absent: the whole matrix. */
    only: z.array(z.string()).min(1).optional(),
    /** How a partial report names its share (`2/3`). */
    shardLabel: z.string().optional(),
  })
  .strict();
export type RequestOptions = z.infer<typeof evaluationOptionsSchema>;

/** The change: the case (suite resolved), where its hidden files and patches live. */
export const changeSpecSchema = z.object({
  caseFile: caseFileSchema.omit({ suite: true }),
  suite: suiteSchema,
  /** Folder the suite's hidden `files` are relative to. */
  suiteDir: z.string().min(1),
  /** Folder patch paths in the case are relative to. */
  caseDir: z.string().min(1),
});
export type ChangeSpec = z.infer<typeof changeSpecSchema>;

export const evaluationRequestSchema = z.object({
  change: changeSpecSchema,
  options: evaluationOptionsSchema,
});
export type EvaluationRequest = z.infer<typeof evaluationRequestSchema>;
