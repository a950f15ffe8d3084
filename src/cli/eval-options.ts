/**
 * Flags shared by `eval` and `validate` (declared in `commands/eval-flags.ts`), validated with zod
 * so a bad flag names itself, and turned into the engine's options with defaults that fit this
 * machine.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import envPaths from 'env-paths';
import { z } from 'zod';
import { InputError } from '../core/errors.ts';
import { matrixModeSchema, shardSchema } from '../core/matrix-plan.ts';
import type { Suite } from '../core/suite.schema.ts';
import type { EvaluationOptions } from '../engine/evaluate-api.ts';
import { parseMemory } from '../engine/limits.ts';

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

export function parseEvalFlags(raw: unknown): EvalFlags {
  const parsed = evalFlagsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const flag = String(issue.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  throw new InputError(`option --${flag}: ${issue.message}`);
}

export function defaultCacheDir(): string {
  return process.env.TANDEM_CACHE_DIR ?? envPaths('tandem', { suffix: '' }).cache;
}

function hostCaBundle(): string | undefined {
  const candidates = [
    process.env.NODE_EXTRA_CA_CERTS,
    process.env.SSL_CERT_FILE,
    '/etc/ssl/certs/ca-certificates.crt',
    '/etc/pki/tls/certs/ca-bundle.crt',
  ];
  return candidates.find((c): c is string => !!c && existsSync(c));
}

/** Parallel configurations: one per CPU, fewer when their memory limits would not fit in RAM. */
export function defaultJobs(suite: Suite): number {
  const byMemory = Math.floor((os.totalmem() * 0.75) / parseMemory(suite.limits.memory));
  return Math.max(1, Math.min(os.availableParallelism(), byMemory));
}

export function engineOptions(
  flags: EvalFlags,
  suite: Suite,
  prepareNetwork: string,
): Omit<EvaluationOptions, 'onEvent' | 'signal'> {
  const ca = flags.caBundle ? path.resolve(flags.caBundle) : hostCaBundle();
  if (flags.caBundle && !existsSync(ca!))
    throw new InputError(`option --ca-bundle: no such file ${flags.caBundle}`);
  return {
    matrix: flags.matrix,
    reruns: flags.reruns,
    jobs: flags.jobs ?? defaultJobs(suite),
    cacheDir: path.resolve(flags.cacheDir ?? defaultCacheDir()),
    ...(flags.workDir ? { workDir: path.resolve(flags.workDir) } : {}),
    useResultCache: flags.cache,
    sandbox: flags.sandbox,
    prepareNetwork: flags.prepareNetwork ?? prepareNetwork,
    ...(ca ? { caBundle: ca } : {}),
  };
}
