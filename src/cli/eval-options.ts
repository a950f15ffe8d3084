/**
 * The flags of `eval` and `validate`, validated with zod so a bad flag names itself, and turned
 * into EvaluationSettings for the engine's one request builder (engine/evaluation-request.ts),
 * which decides the defaults that fit this machine.
 */
import { z } from 'zod';
import type { EvaluationSettings } from '../core/evaluation-request.schema.ts';
import { matrixModeSchema } from '../core/matrix-mode.ts';
import { shardSchema } from '../core/shard-plan.ts';
import { inputErrorOf } from '../core/zod-issues.ts';

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
    ...(flags.shard ? { shard: `${flags.shard.index}/${flags.shard.count}` } : {}),
  };
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
