/**
 * The flags of `eval` and `validate`, validated with zod so a bad flag names itself, and turned
 * into EvaluationSettings for the engine's one request builder (engine/evaluation-request.ts),
 * which decides the defaults that fit this machine.
 */

import { z } from 'zod';
import type { EvaluationSettings } from '../core/evaluation-request.schema.ts';
import { MAX_JOBS, MAX_RERUNS, sandboxKindSchema } from '../core/evaluation-request.schema.ts';
import { matrixModeSchema } from '../core/matrix-mode.ts';
import { formatShard, shardSchema } from '../core/shard-plan.ts';
import { flagLabel, inputErrorOf } from '../core/zod-issues.ts';

/** The engine flags every evaluating command shares (`eval`, `validate`, `bench …`). */
export const engineFlagShape = {
  jobs: z.coerce.number().int().min(1).max(MAX_JOBS).optional(),
  cacheDir: z.string().optional(),
  workDir: z.string().optional(),
  cache: z.boolean().default(true),
  sandbox: sandboxKindSchema.default('docker'),
  prepareNetwork: z.string().optional(),
  caBundle: z.string().optional(),
};
export type EngineFlags = z.output<z.ZodObject<typeof engineFlagShape>>;

export const evalFlagsSchema = z.object({
  matrix: matrixModeSchema.default('auto'),
  reruns: z.coerce.number().int().min(0).max(MAX_RERUNS).default(0),
  ...engineFlagShape,
  json: z.string().optional(),
  markdown: z.string().optional(),
  shard: shardSchema.optional(),
  quiet: z.boolean().default(false),
});
export type EvalFlags = z.infer<typeof evalFlagsSchema>;

/** `cacheDir` → `option --cache-dir`: how a setting is named on the command line (core's flagLabel). */
export const flagName = (setting: string): string => flagLabel([setting]);

/** Parses a command's flags; a bad one is an InputError naming it (`option --jobs: …`). */
export function parseFlags<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw inputErrorOf(parsed.error, '', { label: flagLabel });
}

export function parseEvalFlags(raw: unknown): EvalFlags {
  return parseFlags(evalFlagsSchema, raw);
}

/** The settings the engine flags ask for; what they leave out the request builder decides. */
export function engineSettings(flags: EngineFlags): EvaluationSettings {
  if (flags.prepareNetwork)
    process.stderr.write(
      "tandem: --prepare-network is retired and ignored: prepare reaches only the suite's network.allow hosts, through Tandem's egress proxy\n",
    );
  return {
    useResultCache: flags.cache,
    sandbox: flags.sandbox,
    ...(flags.jobs !== undefined ? { jobs: flags.jobs } : {}),
    ...(flags.cacheDir ? { cacheDir: flags.cacheDir } : {}),
    ...(flags.workDir ? { workDir: flags.workDir } : {}),
    ...(flags.caBundle ? { caBundle: flags.caBundle } : {}),
  };
}

/** The settings `eval` and `validate` ask for. */
export function evaluationSettings(flags: EvalFlags): EvaluationSettings {
  return {
    ...engineSettings(flags),
    matrix: flags.matrix,
    reruns: flags.reruns,
    ...(flags.shard ? { shard: formatShard(flags.shard) } : {}),
  };
}
