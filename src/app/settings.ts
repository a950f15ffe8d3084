/**
 * Tandem's own environment next to Probot's (APP_ID, PRIVATE_KEY, WEBHOOK_SECRET, GHE_HOST, …),
 * read once when the App starts (`startAppServer`, `main.ts`) and passed down: no module of the
 * App reads `process.env` itself.
 */
import { z } from 'zod';
import { describeIssues } from '../core/zod-issues.ts';
import { type HostDefaults, hostDefaults } from '../engine/host-defaults.ts';

const envSchema = z.object({
  TANDEM_DATA_DIR: z.string().min(1).default('.tandem'),
  TANDEM_DEBOUNCE_MS: z.coerce.number().int().min(0).default(5000),
  TANDEM_CONCURRENCY: z.coerce.number().int().min(1).default(2),
  /** Replicas (DATABASE_URL): how long a replica's leases outlive it (`replicas/lease-keeper.ts`). */
  TANDEM_LEASE_MS: z.coerce.number().int().min(100).default(15_000),
  TANDEM_SANDBOX: z.enum(['docker', 'process']).default('docker'),
  /** Development only: the process sandbox is no sandbox, so the App refuses it without this. */
  TANDEM_ALLOW_PROCESS_SANDBOX: z.enum(['0', '1']).default('0'),
  TANDEM_JOBS: z.coerce.number().int().min(1).optional(),
  TANDEM_WRITE_SPACING_MS: z.coerce.number().int().min(0).default(0),
  TANDEM_CONFIG_TTL_MS: z.coerce.number().int().min(0).default(60_000),
  TANDEM_QUEUE_LANDING_RETRY_MS: z.coerce.number().int().min(1).default(5000),
  PORT: z.coerce.number().int().min(0).default(3000),
  // Every interface: GitHub's webhooks arrive from outside (behind a proxy, set HOST=127.0.0.1).
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Where GitHub users reach this App (`https://tandem.example.com`): JSON report links need it. */
  TANDEM_PUBLIC_URL: z.string().url().optional(),
  /**
   * A PostgreSQL database (`postgres://user:password@host:5432/tandem`) for the App's state,
   * which several App processes can share, and the job queue of `tandem worker` processes
   * (`executor: workers`); unset (or empty): one SQLite file in TANDEM_DATA_DIR.
   */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//i, 'a postgres:// or postgresql:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

export type Settings = {
  dataDir: string;
  debounceMs: number;
  concurrency: number;
  /** Replicas: a dead replica's sets and evaluations are taken over this long after it stopped renewing. */
  leaseMs: number;
  sandbox: 'docker' | 'process';
  /** Unset: the engine's default from CPUs and memory, as the CLI's. */
  jobs: number | undefined;
  /** Minimum gap between GitHub writes (0: a few at once). */
  writeSpacingMs: number;
  /** How long a cached `tandem.yml` decides whether a webhook marks a check queued. */
  configTtlMs: number;
  /** The first wait before the merge queue lands again a landing GitHub stopped answering (doubles). */
  queueLandingRetryMs: number;
  port: number;
  host: string;
  /** Unset: comments link no JSON report (the App cannot know its own address). */
  publicUrl: string | undefined;
  /** The engine's host defaults (CA bundle), from the same environment. */
  engineHost: HostDefaults;
  /**
   * Unset: the store is `tandem.db` in `dataDir`, and organizations on `executor: workers` get an
   * infrastructure error naming it.
   */
  databaseUrl: string | undefined;
};

/** A setting the App cannot start with: `npm start` prints the message alone and exits 1. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

export function settingsFromEnv(env: NodeJS.ProcessEnv): Settings {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const { text } = describeIssues(parsed.error, {
      label: (path) => `environment variable ${String(path[0])}`,
    });
    throw new SettingsError(text);
  }
  const e = parsed.data;
  // PR code run as host processes could read the App's files and talk to GitHub as the App: a
  // development convenience an App serving real pull requests must never fall into by a typo.
  if (e.TANDEM_SANDBOX === 'process' && e.TANDEM_ALLOW_PROCESS_SANDBOX !== '1')
    throw new SettingsError(
      'environment variable TANDEM_SANDBOX: "process" runs pull-request code as plain host processes (no isolation); the App refuses it unless TANDEM_ALLOW_PROCESS_SANDBOX=1 is set, for development only',
    );
  return {
    dataDir: e.TANDEM_DATA_DIR,
    debounceMs: e.TANDEM_DEBOUNCE_MS,
    concurrency: e.TANDEM_CONCURRENCY,
    leaseMs: e.TANDEM_LEASE_MS,
    sandbox: e.TANDEM_SANDBOX,
    jobs: e.TANDEM_JOBS,
    writeSpacingMs: e.TANDEM_WRITE_SPACING_MS,
    configTtlMs: e.TANDEM_CONFIG_TTL_MS,
    queueLandingRetryMs: e.TANDEM_QUEUE_LANDING_RETRY_MS,
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.TANDEM_PUBLIC_URL,
    engineHost: hostDefaults(env),
    databaseUrl: e.DATABASE_URL,
  };
}
