/**
 * Runs one configuration: a private workspace (each repository copied from its base or head
 * state, prepared dependency folders mounted read-only), the suite's setup and test groups in
 * one sandbox, then result collection. The result cache is consulted first.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { InfraError, infraInfo } from '../core/errors.ts';
import type { PlannedConfiguration } from '../core/matrix-plan.ts';
import type { ConfigurationRun, InfraErrorInfo } from '../core/run.schema.ts';
import { groupIsolated, type Suite } from '../core/suite.schema.ts';
import { copyTree, removeTree } from './fs-util.ts';
import { failedPrepareRun, type PrepareFailedError } from './prepare/prepare-failure.ts';
import { collectGroups, toStepRun } from './results/collect-results.ts';
import type { ResultCache } from './results/result-cache.ts';
import { resultKey } from './results/result-cache.ts';
import type { ReadonlyMount, Sandbox, SandboxLimits } from './sandbox/sandbox.ts';
import { wireWorkspace } from './wiring/wiring-workspace.ts';

/** One repository as it enters a configuration. */
export interface WorkspaceRepo {
  repo: string;
  name: string;
  dir: string;
  tree: string;
  deps?: { key: string; mounts: ReadonlyMount[] };
}

export interface ConfigurationJob {
  planned: PlannedConfiguration;
  attempt: number;
  /** The repositories, or the infrastructure error that keeps this configuration from running. */
  repos: WorkspaceRepo[] | InfraErrorInfo;
  /** A head this configuration applies failed to prepare (its base did not): the run fails. */
  prepareFailure?: PrepareFailedError;
  /** Resolves when a run slot is free; until then the workspace and container are made ready. */
  startGate?: Promise<void>;
}

export interface RunContext {
  suite: Suite;
  suiteHash: string;
  imageId: string;
  sandbox: Sandbox;
  limits: SandboxLimits;
  hiddenRoot: string;
  hiddenDirs: Map<string, string>;
  runDir: string;
  cache?: ResultCache;
  signal?: AbortSignal;
}

export async function runConfiguration(job: ConfigurationJob, ctx: RunContext): Promise<ConfigurationRun> {
  const { planned, attempt } = job;
  const base = { id: planned.id, applied: planned.applied, attempt, setup: [], groups: [], cached: false };
  if (job.prepareFailure) return failedPrepareRun(planned, attempt, ctx.suite.tests, job.prepareFailure);
  if (!Array.isArray(job.repos)) {
    return { ...base, durationMs: 0, infraError: { ...job.repos, configuration: planned.id } };
  }
  const repos = job.repos;
  const key = resultKey({
    configurationId: planned.id,
    attempt,
    states: repos.map((r) => ({ name: r.name, tree: r.tree, ...(r.deps ? { deps: r.deps.key } : {}) })),
    suiteHash: ctx.suiteHash,
    imageId: ctx.imageId,
    sandbox: ctx.sandbox.kind,
  });
  const hit = await ctx.cache?.get(key);
  if (hit) return { ...hit, cached: true, cacheKey: key };

  // Time in the run slot: what was made ready ahead, while waiting for it, is not counted.
  let started = Date.now();
  void job.startGate?.then(() => {
    started = Math.max(started, Date.now());
  });
  const dir = path.join(ctx.runDir, `${planned.id}.${attempt}`);
  const workspaceDir = path.join(dir, 'workspace');
  const resultsDir = path.join(dir, 'results');
  try {
    await mkdir(workspaceDir, { recursive: true });
    await Promise.all(
      repos.map((r) =>
        copyTree(
          r.dir,
          path.join(workspaceDir, r.name),
          // Declared dependency folders come from the prepared cache, never from the tree
          // (top-level ones are skipped here; deeper ones are simply mounted over).
          (r.deps?.mounts ?? [])
            .map((m) => path.posix.relative(r.name, m.workspacePath))
            .filter((rel) => !rel.includes('/')),
        ),
      ),
    );
    const s = ctx.suite;
    const wired = await wireWorkspace(
      s.wiring,
      repos.map((r) => ({ repo: r.repo, name: r.name, mounts: r.deps?.mounts ?? [] })),
      workspaceDir,
      ctx.sandbox.kind === 'docker',
    );
    const outcome = await ctx.sandbox.runConfiguration({
      configurationId: planned.id,
      image: s.image,
      workspaceDir,
      readonlyMounts: [...repos.flatMap((r) => r.deps?.mounts ?? []), ...wired.readonlyMounts],
      links: wired.links,
      workspaceEnv: wired.workspaceEnv,
      hiddenRoot: ctx.hiddenRoot,
      resultsDir,
      setup: s.setup.map((st, i) => ({ name: `setup:${i + 1}`, run: st.run, timeoutSec: st.timeout })),
      tests: s.tests.map((g) => ({
        name: g.name,
        run: g.run,
        timeoutSec: g.timeout,
        resultsPath: g.results.path,
        isolate: groupIsolated(g),
        ...(ctx.hiddenDirs.has(g.name) ? { hiddenDir: ctx.hiddenDirs.get(g.name)! } : {}),
      })),
      limits: ctx.limits,
      ...(job.startGate ? { startGate: job.startGate } : {}),
      timeoutSec: s.limits.configuration_timeout,
      outputCapBytes: 64 * 1024,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    const groups = collectGroups(s.tests, outcome);
    const run: ConfigurationRun = {
      ...base,
      setup: outcome.setup.filter((x) => !x.notRun).map(toStepRun),
      groups,
      cacheKey: key,
      durationMs: Date.now() - started,
    };
    if (!ctx.signal?.aborted) await ctx.cache?.put(key, run);
    return run;
  } catch (err) {
    if (ctx.signal?.aborted) throw new InfraError('aborted', 'the evaluation was interrupted');
    return {
      ...base,
      durationMs: Date.now() - started,
      infraError: { ...infraInfo(err), configuration: planned.id },
    };
  } finally {
    await removeTree(dir);
  }
}
