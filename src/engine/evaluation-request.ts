/**
 * The one builder of an EvaluationRequest: a change plus the settings a face was given, with
 * every default decided here — jobs from this machine's CPUs and memory, the prepare network
 * (`bridge`, or `host` on an engine without one), the host's CA bundle, the cache folder — and
 * a shard turned into the configurations it runs. The CLI, the Action and the App's local
 * executor all call it, so the same change runs the same way from every face.
 */
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InputError } from '../core/errors.ts';
import {
  type ChangeSpec,
  type EvaluationRequest,
  type EvaluationSettings,
  evaluationRequestSchema,
  evaluationSettingsSchema,
  MAX_JOBS,
  type RequestOptions,
} from '../core/evaluation-request.schema.ts';
import { planMatrix } from '../core/matrix-plan.ts';
import { parseMemory } from '../core/memory-size.ts';
import { formatShard, shardConfigurations } from '../core/shard-plan.ts';
import type { Suite } from '../core/suite.schema.ts';
import { inputErrorOf } from '../core/zod-issues.ts';
import { detectPrepareNetwork } from './docker/docker-network.ts';
import type { HostDefaults } from './host-defaults.ts';

export { type HostDefaults, hostDefaults } from './host-defaults.ts';

/** Parallel configurations: one per CPU, fewer when their memory limits would not fit in RAM. */
export function defaultJobs(suite: Suite): number {
  const byMemory = Math.floor((os.totalmem() * 0.75) / parseMemory(suite.limits.memory));
  return Math.max(1, Math.min(os.availableParallelism(), byMemory, MAX_JOBS));
}

export interface BuildOptions {
  host: HostDefaults;
  /** How a bad setting is named in errors (`option --{name}` for the CLI, `input "{name}"`…). */
  label?: (setting: string) => string;
  /** Detects the prepare network; injectable so tests need no Docker. */
  detectNetwork?: () => Promise<string>;
}

const defaultLabel = (setting: string) => `setting "${setting}"`;

/** The options that do not depend on the change: folders, sandbox, network, CA bundle. */
export type EngineDefaults = Pick<
  RequestOptions,
  'cacheDir' | 'workDir' | 'useResultCache' | 'sandbox' | 'prepareNetwork' | 'caBundle'
>;

function parseSettings(settings: EvaluationSettings, label: (setting: string) => string) {
  const parsed = evaluationSettingsSchema.safeParse(settings);
  if (!parsed.success)
    throw inputErrorOf(parsed.error, '', { label: (p) => label(String(p[0] ?? 'settings')) });
  return parsed.data;
}

async function decideEngineDefaults(
  s: ReturnType<typeof parseSettings>,
  opts: BuildOptions,
  label: (setting: string) => string,
): Promise<EngineDefaults> {
  const caBundle = s.caBundle ? path.resolve(s.caBundle) : opts.host.caBundle;
  if (s.caBundle && !existsSync(caBundle!))
    throw new InputError(`${label('caBundle')}: no such file ${s.caBundle}`, undefined, 'caBundle');
  const prepareNetwork =
    s.prepareNetwork ??
    (s.sandbox === 'docker' ? await (opts.detectNetwork ?? detectPrepareNetwork)() : 'none');
  const workDir = s.workDir ?? opts.host.workDir;
  return {
    cacheDir: path.resolve(s.cacheDir ?? opts.host.cacheDir),
    ...(workDir ? { workDir: path.resolve(workDir) } : {}),
    useResultCache: s.useResultCache,
    sandbox: s.sandbox,
    prepareNetwork,
    ...(caBundle ? { caBundle } : {}),
  };
}

/**
 * The change-independent options, for a run that evaluates many changes with one setting
 * (`tandem bench`): the same decisions as buildEvaluationRequest.
 */
export async function engineDefaults(
  settings: EvaluationSettings,
  opts: BuildOptions,
): Promise<EngineDefaults> {
  const label = opts.label ?? defaultLabel;
  return decideEngineDefaults(parseSettings(settings, label), opts, label);
}

/** Validates the settings, decides the defaults and returns the request the engine runs. */
export async function buildEvaluationRequest(
  change: ChangeSpec,
  settings: EvaluationSettings,
  opts: BuildOptions,
): Promise<EvaluationRequest> {
  const label = opts.label ?? defaultLabel;
  const s = parseSettings(settings, label);
  const engine = await decideEngineDefaults(s, opts, label);
  let shard: { only: string[]; shardLabel: string } | undefined;
  if (s.shard) {
    const plan = planMatrix(
      change.caseFile.targets.map((t) => t.repo),
      s.matrix,
    );
    const only = shardConfigurations(plan, s.shard).map((c) => c.id);
    if (only.length === 0)
      throw new InputError(
        `${label('shard')}: shard ${formatShard(s.shard)} has no configuration to run (the matrix has ${plan.configurations.length})`,
        undefined,
        'shard',
      );
    shard = { only, shardLabel: formatShard(s.shard) };
  }
  // Validated on the way out too: a request is what every face hands the engine, whatever built it.
  return evaluationRequestSchema.parse({
    change,
    options: {
      matrix: s.matrix,
      reruns: s.reruns,
      jobs: s.jobs ?? defaultJobs(change.suite),
      ...engine,
      ...(shard ?? {}),
    },
  });
}
