/**
 * The flags of `eval` and `validate`, validated with zod so a bad flag names itself, and turned
 * into EvaluationSettings for the engine's one request builder (engine/evaluation-request.ts),
 * which decides the defaults that fit this machine.
 */

// Below: only for the temporary engineOptions shim.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { InputError } from '../core/errors.ts';
import type { EvaluationSettings } from '../core/evaluation-request.schema.ts';
import { matrixModeSchema } from '../core/matrix-mode.ts';
import { formatShard, shardSchema } from '../core/shard-plan.ts';
import type { Suite } from '../core/suite.schema.ts';
import { inputErrorOf } from '../core/zod-issues.ts';
import type { EvaluationOptions } from '../engine/evaluate-api.ts';
import { defaultJobs, hostDefaults } from '../engine/evaluation-request.ts';

export const evalFlagsSchema = z.object({
  matrix: matrixModeSchema.default('auto'),
  reruns: z.coerce.number().int().min(0).max(20).default(0),
  jobs: z.coerce.number().int().min(1).max(64).optional(),
  cacheDir: z.string().optional(),
  workDir: z.string().optional(),
  cache: z.boolean().default(true),
  sandbox: z.enum(['docker', 'process']).default('docker'),
  prepareNetwork: z.string().optional(),
  caBundle: z.string().optional(),
  json: z.string().optional(),
  markdown: z.string().optional(),
  shard: shardSchema.optional(),
  quiet: z.boolean().default(false),
});
export type EvalFlags = z.infer<typeof evalFlagsSchema>;

/** `cacheDir` → `--cache-dir`: how a setting is named on the command line. */
export function flagName(setting: string): string {
  return `option --${setting.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

export function parseEvalFlags(raw: unknown): EvalFlags {
  const parsed = evalFlagsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw inputErrorOf(parsed.error, 'tandem', { label: (p) => flagName(String(p[0] ?? '')) });
}

/** The engine settings the flags ask for; what they leave out the request builder decides. */
export function evaluationSettings(flags: EvalFlags): EvaluationSettings {
  return {
    matrix: flags.matrix,
    reruns: flags.reruns,
    useResultCache: flags.cache,
    sandbox: flags.sandbox,
    ...(flags.jobs !== undefined ? { jobs: flags.jobs } : {}),
    ...(flags.cacheDir ? { cacheDir: flags.cacheDir } : {}),
    ...(flags.workDir ? { workDir: flags.workDir } : {}),
    ...(flags.prepareNetwork ? { prepareNetwork: flags.prepareNetwork } : {}),
    ...(flags.caBundle ? { caBundle: flags.caBundle } : {}),
    ...(flags.shard ? { shard: formatShard(flags.shard) } : {}),
  };
}

/**
 * Temporary, for the Action until it calls buildEvaluationRequest itself (it must not import the
 * CLI): the old synchronous shape, with every default taken from the engine's builder module.
 * @deprecated
 */
export function engineOptions(
  flags: EvalFlags,
  suite: Suite,
  prepareNetwork: string,
): Omit<EvaluationOptions, 'onEvent' | 'signal'> {
  const host = hostDefaults(process.env);
  const ca = flags.caBundle ? path.resolve(flags.caBundle) : host.caBundle;
  if (flags.caBundle && !existsSync(ca!))
    throw new InputError(`option --ca-bundle: no such file ${flags.caBundle}`);
  return {
    matrix: flags.matrix,
    reruns: flags.reruns,
    jobs: flags.jobs ?? defaultJobs(suite),
    cacheDir: path.resolve(flags.cacheDir ?? host.cacheDir),
    ...(flags.workDir ? { workDir: path.resolve(flags.workDir) } : {}),
    useResultCache: flags.cache,
    sandbox: flags.sandbox,
    prepareNetwork: flags.prepareNetwork ?? prepareNetwork,
    ...(ca ? { caBundle: ca } : {}),
  };
}
