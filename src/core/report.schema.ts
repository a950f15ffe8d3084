import { z } from 'zod';
import { gradeSchema } from './grade.schema.ts';
import { matrixModeSchema, resolvedMatrixModeSchema } from './matrix-mode.ts';
import { configurationRunSchema, infraErrorSchema } from './run.schema.ts';

export const REPORT_SCHEMA_VERSION = 1;

const stateSchema = z.object({
  /** The ref as the case gave it (absent for a patch head). */
  ref: z.string().optional(),
  sha: z.string(),
  /** Content address of the state's tree (what result caching keys on). */
  tree: z.string().optional(),
});

export const reportTargetSchema = z.object({
  repo: z.string(),
  url: z.string(),
  base: stateSchema,
  head: stateSchema
    .extend({
      kind: z.enum(['branch', 'merge', 'patch']),
      /** For a patch: the file and the method of the fallback chain that applied it. */
      patch: z.object({ file: z.string(), method: z.string() }).optional(),
    })
    .optional(),
  error: infraErrorSchema.optional(),
});

export const reportSchema = gradeSchema.extend({
  schemaVersion: z.literal(REPORT_SCHEMA_VERSION),
  tool: z.object({ name: z.literal('tandem'), version: z.string() }),
  name: z.string(),
  createdAt: z.string(),
  durationMs: z.number(),
  sandbox: z.enum(['docker', 'process']),
  suite: z.object({ name: z.string(), hash: z.string(), image: z.string(), imageId: z.string() }),
  matrix: z.object({
    requested: matrixModeSchema,
    mode: resolvedMatrixModeSchema,
    reruns: z.number().int().nonnegative(),
    /** Configuration ids of the plan; a sharded (partial) report ran only some of them. */
    planned: z.array(z.string()),
  }),
  targets: z.array(reportTargetSchema),
  context: z.array(z.object({ repo: z.string(), url: z.string(), ref: z.string(), sha: z.string() })),
  /** Present on shard reports: which shard, and the raw runs `tandem merge` re-grades. */
  partial: z
    .object({
      shard: z.string(),
      runs: z.array(configurationRunSchema),
      /** The grading inputs beyond the runs, so a merge grades exactly as an unsharded run. */
      failToPass: z.array(z.string()).optional(),
      passToPass: z.array(z.string()).optional(),
      groups: z.array(z.object({ name: z.string(), repo: z.string().optional() })),
    })
    .optional(),
});

export type Report = z.infer<typeof reportSchema>;
export type ReportTarget = z.infer<typeof reportTargetSchema>;
