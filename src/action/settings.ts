/**
 * Everything the Action takes from its environment, read once when the step starts (never at
 * import time, so `@github/local-action` can load its `.env` first and tests can pass their own):
 * the runner's variables, Tandem's own overrides, and the toolkit's `github.context` (the API URL
 * and the triggering event's payload, which `@actions/github` reads from `GITHUB_EVENT_PATH`).
 */
import path from 'node:path';
import { z } from 'zod';
import { type HostDefaults, hostDefaults } from '../engine/evaluation-request.ts';

const envSchema = z.object({
  /** The evaluator repository checkout: case, suite and report paths are relative to it. */
  GITHUB_WORKSPACE: z.string().min(1).optional(),
  /** Set by the runner when job summaries are supported (absent under `node dist/index.js`). */
  GITHUB_STEP_SUMMARY: z.string().min(1).optional(),
  /** Wiped per job and on the runner's fast disk: the default cache home. */
  RUNNER_TEMP: z.string().min(1).optional(),
  TANDEM_CACHE_DIR: z.string().min(1).optional(),
});

/** The parts of `@actions/github`'s `context` the Action reads. */
export interface ContextLike {
  apiUrl: string;
  payload: unknown;
}

export interface ActionSettings {
  workspace: string;
  /** REST base URL: `https://api.github.com`, GHES's `/api/v3`, or a local stand-in. */
  apiUrl: string;
  /** The triggering event (`{}` when there is none). */
  eventPayload: unknown;
  /** Whether the job summary can be written; otherwise it goes to the log. */
  hasSummaryFile: boolean;
  /** Mirrors, states, prepared dependencies and cached results. */
  cacheDir: string;
  /** What the engine's defaults depend on (the host's CA bundle, …). */
  host: HostDefaults;
}

export function readSettings(
  env: Record<string, string | undefined>,
  context: ContextLike,
  cwd: string,
): ActionSettings {
  const e = envSchema.parse(env);
  const host = hostDefaults(env);
  // Runners keep no cache between jobs, and RUNNER_TEMP is on their fast disk; elsewhere (a local
  // run) the user cache, as the CLI's, so repeated runs reuse mirrors and prepared dependencies.
  const cacheDir =
    e.TANDEM_CACHE_DIR ?? (e.RUNNER_TEMP ? path.join(e.RUNNER_TEMP, 'tandem-cache') : host.cacheDir);
  return {
    workspace: path.resolve(cwd, e.GITHUB_WORKSPACE ?? '.'),
    apiUrl: context.apiUrl.replace(/\/$/, ''),
    eventPayload: context.payload,
    hasSummaryFile: e.GITHUB_STEP_SUMMARY !== undefined,
    cacheDir: path.resolve(cwd, cacheDir),
    host,
  };
}
