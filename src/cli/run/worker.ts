import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { scrubCredentials } from '../../core/credentials.ts';
import { InputError } from '../../core/errors.ts';
import { hostIdSchema } from '../../core/worker-job.schema.ts';
import { inputErrorOf } from '../../core/zod-issues.ts';
import { hostDefaults } from '../../engine/host-defaults.ts';

/** The flags as commander gives them (strings), parsed below. */
export interface WorkerFlags {
  databaseUrl?: string;
  hostId?: string;
  concurrency: string;
  sandbox: string;
  cacheDir?: string;
  jobs?: string;
}

const flagsSchema = z
  .object({
    databaseUrl: z.string().regex(/^postgres(ql)?:\/\//, 'expected a postgres:// URL'),
    hostId: hostIdSchema,
    concurrency: z.coerce.number().int().min(1).max(64),
    sandbox: z.enum(['docker', 'process']),
    cacheDir: z.string().min(1).optional(),
    jobs: z.coerce.number().int().min(1).max(64).optional(),
  })
  .strict();

/** A host name as a host id: what the id may not hold becomes `-`. */
function defaultHostId(): string {
  return (
    os
      .hostname()
      .replace(/[^A-Za-z0-9_.-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 63) || 'worker'
  );
}

/** `tandem worker`: runs until interrupted (SIGINT/SIGTERM: running jobs are handed back), then 130. */
export async function workerCommand(raw: WorkerFlags, signal: AbortSignal): Promise<number> {
  const parsed = flagsSchema.safeParse({
    databaseUrl: raw.databaseUrl ?? process.env.DATABASE_URL,
    hostId: raw.hostId ?? defaultHostId(),
    concurrency: raw.concurrency,
    sandbox: raw.sandbox,
    ...(raw.cacheDir ? { cacheDir: raw.cacheDir } : {}),
    ...(raw.jobs ? { jobs: raw.jobs } : {}),
  });
  if (!parsed.success)
    throw inputErrorOf(parsed.error, '', {
      label: (p) =>
        p[0] === 'databaseUrl' && !raw.databaseUrl
          ? 'environment variable DATABASE_URL'
          : `option --${FLAG_NAMES[String(p[0])] ?? String(p[0])}`,
    });
  const flags = parsed.data;
  // PR code as plain host processes on a host the evaluator shares with hidden tests: never by a typo.
  if (flags.sandbox === 'process' && process.env.TANDEM_ALLOW_PROCESS_SANDBOX !== '1')
    throw new InputError(
      'option --sandbox: "process" runs pull-request code as plain host processes (no isolation); a worker refuses it unless TANDEM_ALLOW_PROCESS_SANDBOX=1 is set, for development only',
      undefined,
      'sandbox',
    );
  const host = hostDefaults(process.env);
  if (flags.cacheDir) host.cacheDir = path.resolve(flags.cacheDir);
  if (flags.sandbox === 'docker') {
    // A worker killed on this host (SIGKILL, OOM, a crash) leaves its containers running under
    // Docker's daemon; the worker started in its place removes them before taking a job (their
    // owner labels say they are a dead process's). Each job's sandbox sweeps again before its
    // first container, for a worker that died while this one ran.
    const [{ removeOrphans }, { createDockerClient }] = await Promise.all([
      import('../../engine/docker/container-owner.ts'),
      import('../../engine/docker/docker-client.ts'),
    ]);
    await removeOrphans(createDockerClient());
  }
  const [{ runWorker }, { engineRunner }] = await Promise.all([
    import('../../engine/workers/worker.ts'),
    import('../../engine/workers/run-job.ts'),
  ]);
  await runWorker({
    databaseUrl: flags.databaseUrl,
    hostId: flags.hostId,
    concurrency: flags.concurrency,
    runner: engineRunner({ host, sandbox: flags.sandbox, ...(flags.jobs ? { jobs: flags.jobs } : {}) }),
    scratchDir: path.join(host.cacheDir, 'worker'),
    signal,
    // The database URL may hold a password: nothing this prints quotes it.
    log: (line) => process.stderr.write(`${scrubCredentials(line, [flags.databaseUrl])}\n`),
  });
  return 130;
}

const FLAG_NAMES: Record<string, string> = {
  databaseUrl: 'database-url',
  hostId: 'host-id',
  cacheDir: 'cache-dir',
};
