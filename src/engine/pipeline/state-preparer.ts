/**
 * Each (repository, state) is prepared once, lazily, and shared by every configuration that
 * needs it (engine/prepare/prepare-cache.ts does the install and its cross-evaluation cache).
 * Base states start first, the largest install first (prepare-order.ts): every configuration
 * waits for the slowest of them. A configuration's job is its states once all are ready, or the
 * failure that keeps it from running.
 */
import { InfraError, infraInfo } from '../../core/errors.ts';
import type { EvaluationEvent } from '../../core/evaluation-event.ts';
import type { PlannedConfiguration } from '../../core/matrix-plan.ts';
import type { InfraErrorInfo } from '../../core/run.schema.ts';
import type { Suite } from '../../core/suite.schema.ts';
import type { MaterializedRepo } from '../git/workspace-states.ts';
import { downloadCacheDir, prepareDeps } from '../prepare/prepare-cache.ts';
import { settleStates } from '../prepare/prepare-failure.ts';
import { keyFilesBytes, largestFirst } from '../prepare/prepare-order.ts';
import type { ConfigurationJob, WorkspaceRepo } from '../run-configuration.ts';
import type { Sandbox, SandboxLimits } from '../sandbox/sandbox.ts';
import { wiringTarget } from '../wiring/wiring-layout.ts';

type Limit = <T>(fn: () => Promise<T>) => Promise<T>;

export interface PreparerContext {
  suite: Suite;
  repos: { targets: MaterializedRepo[]; context: MaterializedRepo[] };
  imageId: string;
  /** The suite's image could not be found: every configuration is this infrastructure error. */
  imageError?: InfraErrorInfo | undefined;
  /** Repositories whose base state is on a trusted branch (prepare/base-trust.ts): it may share. */
  sharedBases: ReadonlySet<string>;
  sandbox: Sandbox;
  limits: SandboxLimits;
  cacheDir: string;
  prepareNetwork: string;
  caBundle?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Run slots: prepares take them too (configurations getting ready ahead hold none). */
  slots: Limit;
  emit: (e: EvaluationEvent) => void;
}

export interface StatePreparer {
  /** Starts every base prepare, largest install first; failures surface in `jobFor`. */
  startBases(): Promise<void>;
  /** The configuration's repositories once their states are prepared, or what keeps it from running. */
  jobFor(planned: PlannedConfiguration, attempt: number): Promise<ConfigurationJob>;
}

export function statePreparer(ctx: PreparerContext): StatePreparer {
  const { suite, repos } = ctx;
  const specOf = (r: MaterializedRepo) => suite.prepare[r.repo] ?? suite.prepare[r.name];
  const prepared = new Map<string, Promise<WorkspaceRepo>>();

  const stateFor = (r: MaterializedRepo, which: 'base' | 'head'): Promise<WorkspaceRepo> => {
    const key = `${r.repo}@${which}`;
    let p = prepared.get(key);
    if (!p) {
      p = prepareState(r, which);
      prepared.set(key, p);
    }
    return p;
  };

  const prepareState = async (r: MaterializedRepo, which: 'base' | 'head'): Promise<WorkspaceRepo> => {
    const state = r[which]!;
    const spec = specOf(r);
    const wr: WorkspaceRepo = { repo: r.repo, name: r.name, dir: state.dir, tree: state.treeSha };
    if (!spec) return wr;
    // A head starts from its base's prepared folder (an incremental install) when there is one.
    const seed = which === 'head' ? await stateFor(r, 'base').catch(() => undefined) : undefined;
    const deps = await ctx.slots(() =>
      prepareDeps(
        {
          repo: r.repo,
          name: r.name,
          stateDir: state.dir,
          stateTree: state.treeSha,
          // A base off every trusted branch is prepared like a head: its own folder, no download cache.
          shared: which === 'base' && ctx.sharedBases.has(r.repo),
          spec,
          image: suite.image,
          imageId: ctx.imageId,
          mountpoints: suite.wiring
            .filter((w) => w.into === r.repo || w.into === r.name)
            .flatMap((w) => wiringTarget(w) ?? []),
          ...(seed?.deps ? { seedKey: seed.deps.key } : {}),
        },
        {
          cacheDir: ctx.cacheDir,
          sandbox: ctx.sandbox,
          limits: ctx.limits,
          network: ctx.prepareNetwork,
          downloadCache: downloadCacheDir(ctx.cacheDir, ctx.imageId),
          ...(ctx.caBundle ? { caBundle: ctx.caBundle } : {}),
          ...(ctx.signal ? { signal: ctx.signal } : {}),
        },
      ),
    );
    ctx.emit({
      type: 'prepare-done',
      repo: r.repo,
      key: deps.key,
      reused: deps.reused,
      durationMs: deps.durationMs,
    });
    return { ...wr, deps: { key: deps.key, mounts: deps.mounts } };
  };

  return {
    async startBases() {
      if (ctx.imageError) return;
      const bases = [...repos.targets, ...repos.context].filter((r) => r.base && specOf(r));
      const order = await largestFirst(bases, (r) => keyFilesBytes(r.base!.dir, specOf(r)?.key_files ?? []));
      // Failures surface where the configurations await these states.
      for (const r of order) stateFor(r, 'base').catch(() => {});
    },

    async jobFor(planned, attempt) {
      if (ctx.imageError) return { planned, attempt, repos: ctx.imageError };
      const broken = [
        ...repos.context.filter((r) => r.error),
        ...repos.targets.filter((r) => r.error && (!r.base || planned.applied.includes(r.repo))),
      ];
      if (broken[0]?.error) return { planned, attempt, repos: broken[0].error };
      try {
        const settled = await settleStates([
          ...repos.targets.map((r) => {
            const head = planned.applied.includes(r.repo);
            return {
              state: stateFor(r, head ? 'head' : 'base'),
              base: head ? stateFor(r, 'base') : undefined,
            };
          }),
          ...repos.context.map((r) => ({ state: stateFor(r, 'base') })),
        ]);
        if ('failure' in settled) return { planned, attempt, repos: [], prepareFailure: settled.failure };
        return { planned, attempt, repos: settled.states };
      } catch (err) {
        if (ctx.signal?.aborted) throw new InfraError('aborted', 'the evaluation was interrupted');
        return { planned, attempt, repos: infraInfo(err) };
      }
    },
  };
}
