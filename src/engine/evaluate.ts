/**
 * The evaluation pipeline shared by the CLI, the App and the Action:
 * resolve → plan matrix → prepare states (each once) → run configurations in sandboxes →
 * collect → grade → report model. Nothing here prints; progress goes out as events.
 */
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { InfraError, infraInfo } from '../core/errors.ts';
import { grade } from '../core/grading.ts';
import { type PlannedConfiguration, planMatrix } from '../core/matrix-plan.ts';
import { parseMemory } from '../core/memory-size.ts';
import { observe } from '../core/observed-tests.ts';
import { REPORT_SCHEMA_VERSION, type Report } from '../core/report.schema.ts';
import type { ConfigurationRun, InfraErrorInfo } from '../core/run.schema.ts';
import type { EvaluationInput, EvaluationOptions } from './evaluate-api.ts';
import { ensureWritableFolder, removeTree } from './fs-util.ts';
import { MirrorCache } from './git/git-mirror.ts';
import { type MaterializedRepo, materializeRepos } from './git/workspace-states.ts';
import { stageHiddenFiles, suiteHash } from './hidden/hidden-files.ts';
import { suiteLeakFilter } from './hidden/hidden-texts.ts';
import { downloadCacheDir, prepareDeps } from './prepare/prepare-cache.ts';
import { settleStates } from './prepare/prepare-failure.ts';
import { keyFilesBytes, largestFirst } from './prepare/prepare-order.ts';
import { ResultCache } from './results/result-cache.ts';
import { type ConfigurationJob, runConfiguration, type WorkspaceRepo } from './run-configuration.ts';
import { holdSlot, readyAhead } from './run-slots.ts';
import { createSandbox } from './sandbox/sandbox-factory.ts';
import { defaultScratchDir } from './scratch-dir.ts';
import { TOOL_VERSION } from './version.ts';
import { checkWiringNames } from './wiring/wiring-check.ts';
import { wiringTarget } from './wiring/wiring-layout.ts';

export async function evaluate(input: EvaluationInput, options: EvaluationOptions): Promise<Report> {
  const started = Date.now();
  const emit = options.onEvent ?? (() => {});
  const { caseFile, suite } = input;
  const sandbox = createSandbox(options.sandbox);
  const limits = {
    memoryBytes: parseMemory(suite.limits.memory),
    cpus: suite.limits.cpus,
    pids: suite.limits.pids,
  };
  const cacheDir = path.resolve(options.cacheDir);
  const scratch = options.workDir ? path.resolve(options.workDir) : defaultScratchDir(cacheDir);
  await ensureWritableFolder(cacheDir, 'cache folder');
  await ensureWritableFolder(scratch, 'work folder');
  const runDir = await mkdtemp(path.join(scratch, 'eval-'));
  const abort = () => void sandbox.dispose();
  options.signal?.addEventListener('abort', abort);
  try {
    await sandbox.checkLimits?.(limits);
    const targets = caseFile.targets.map((t) => t.repo);
    const plan = planMatrix(targets, options.matrix);
    const wanted = options.only
      ? plan.configurations.filter((c) => options.only!.includes(c.id))
      : plan.configurations;
    emit({
      type: 'plan',
      configurations: wanted.map((c) => ({ id: c.id, applied: c.applied })),
      mode: plan.mode,
    });

    const hiddenRoot = path.join(runDir, 'hidden');
    const hiddenDirs = await stageHiddenFiles(suite, input.suiteDir, hiddenRoot);
    // Everything in the report may leave the evaluator: no hidden path or line gets through.
    const leakFilter = await suiteLeakFilter(suite, input.suiteDir);
    const hash = await suiteHash(suite, input.suiteDir);

    const mirrors = new MirrorCache(cacheDir);
    const repos = await materializeRepos(caseFile, input.caseDir, mirrors, cacheDir, (repo, state, sha) =>
      emit({ type: 'state-ready', repo, state, sha }),
    );
    await checkWiringNames(
      suite,
      [...repos.targets, ...repos.context].map((r) => ({ repo: r.repo, name: r.name, baseDir: r.base?.dir })),
    );
    emit({
      type: 'resolved-refs',
      repos: repos.targets.map((r) => ({ repo: r.repo, base: r.report.base.sha, head: r.report.head?.sha })),
    });

    let imageId = '';
    let imageError: InfraErrorInfo | undefined;
    try {
      imageId = await sandbox.imageId(suite.image);
    } catch (err) {
      imageError = infraInfo(err);
    }

    // Each (repository, state) is prepared once, lazily, and shared by every configuration.
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
      const spec = suite.prepare[r.repo] ?? suite.prepare[r.name];
      const wr: WorkspaceRepo = { repo: r.repo, name: r.name, dir: state.dir, tree: state.treeSha };
      if (!spec) return wr;
      // A head starts from its base's prepared folder (an incremental install) when there is one.
      const seed = which === 'head' ? await stateFor(r, 'base').catch(() => undefined) : undefined;
      // Prepares take run slots too: configurations getting ready ahead hold none.
      const deps = await limit(() =>
        prepareDeps(
          {
            repo: r.repo,
            name: r.name,
            stateDir: state.dir,
            stateTree: state.treeSha,
            state: which,
            spec,
            image: suite.image,
            imageId,
            mountpoints: suite.wiring
              .filter((w) => w.into === r.repo || w.into === r.name)
              .flatMap((w) => wiringTarget(w) ?? []),
            ...(seed?.deps ? { seedKey: seed.deps.key } : {}),
          },
          {
            cacheDir,
            sandbox,
            limits,
            network: options.prepareNetwork,
            downloadCache: downloadCacheDir(cacheDir, imageId),
            ...(options.caBundle ? { caBundle: options.caBundle } : {}),
            ...(options.signal ? { signal: options.signal } : {}),
          },
        ),
      );
      emit({
        type: 'prepare-done',
        repo: r.repo,
        key: deps.key,
        reused: deps.reused,
        durationMs: deps.durationMs,
      });
      return { ...wr, deps: { key: deps.key, mounts: deps.mounts } };
    };

    const jobFor = async (planned: PlannedConfiguration, attempt: number): Promise<ConfigurationJob> => {
      if (imageError) return { planned, attempt, repos: imageError };
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
        if (options.signal?.aborted) throw new InfraError('aborted', 'the evaluation was interrupted');
        return { planned, attempt, repos: infraInfo(err) };
      }
    };

    const cache = options.useResultCache ? new ResultCache(path.join(cacheDir, 'results')) : undefined;
    const ctx = {
      suite,
      suiteHash: hash,
      imageId,
      sandbox,
      limits,
      hiddenRoot,
      hiddenDirs,
      runDir,
      ...(cache ? { cache } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    const attempts = wanted.flatMap((c) =>
      Array.from({ length: c.role === 'full' ? 1 + options.reruns : 1 }, (_, attempt) => ({ c, attempt })),
    );
    // A batch caller (benchmark mode) hands in its own slots so configurations of many
    // evaluations share one `--jobs` budget.
    const own = options.slots ? undefined : pLimit(Math.max(1, options.jobs));
    const limit = options.slots ?? (<T>(fn: () => Promise<T>) => own!(fn));
    const ahead = pLimit(readyAhead(options.jobs));
    // Base prepares take the slots before any configuration asks, the largest install first
    // (prepare-order.ts): every configuration waits for the slowest of them.
    if (!imageError) {
      const specOf = (r: MaterializedRepo) => suite.prepare[r.repo] ?? suite.prepare[r.name];
      const bases = [...repos.targets, ...repos.context].filter((r) => r.base && specOf(r));
      const order = await largestFirst(bases, (r) => keyFilesBytes(r.base!.dir, specOf(r)?.key_files ?? []));
      // Failures surface where the configurations await these states.
      for (const r of order) stateFor(r, 'base').catch(() => {});
    }
    const runs: ConfigurationRun[] = await Promise.all(
      attempts.map(({ c, attempt }) =>
        ahead(async () => {
          if (options.signal?.aborted) throw new InfraError('aborted', 'the evaluation was interrupted');
          emit({ type: 'configuration-start', id: c.id, attempt });
          const job = await jobFor(c, attempt);
          const slot = holdSlot(limit);
          try {
            const run = await runConfiguration({ ...job, startGate: slot.gate }, ctx);
            emit(doneEvent(run, suite.fail_to_pass, suite.pass_to_pass));
            return run;
          } finally {
            slot.release();
          }
        }),
      ),
    );

    const groups = suite.tests.map((g) => ({ name: g.name, ...(g.repo ? { repo: g.repo } : {}) }));
    const lists = {
      ...(suite.fail_to_pass ? { failToPass: suite.fail_to_pass } : {}),
      ...(suite.pass_to_pass ? { passToPass: suite.pass_to_pass } : {}),
    };
    const targetErrors = [...repos.targets, ...repos.context].flatMap((r) => (r.error ? [r.error] : []));
    const graded = grade({ plan, runs, groups, ...lists, infraErrors: targetErrors });
    const isPartial = options.only !== undefined;
    return leakFilter.value<Report>({
      schemaVersion: REPORT_SCHEMA_VERSION,
      tool: { name: 'tandem', version: TOOL_VERSION },
      name: caseFile.name,
      createdAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      sandbox: sandbox.kind,
      suite: { name: suite.name, hash, image: suite.image, imageId },
      matrix: {
        requested: options.matrix,
        mode: plan.mode,
        reruns: options.reruns,
        planned: plan.configurations.map((c) => c.id),
      },
      targets: repos.targets.map((r) => r.report),
      context: repos.context.map((r) => ({
        repo: r.repo,
        url: r.report.url,
        ref: r.report.base.ref ?? '',
        sha: r.report.base.sha,
      })),
      ...graded,
      ...(isPartial ? { partial: { shard: options.shardLabel ?? 'custom', runs, groups, ...lists } } : {}),
    });
  } finally {
    options.signal?.removeEventListener('abort', abort);
    await sandbox.dispose().catch(() => {});
    await removeTree(runDir);
  }
}

/** A progress event; passed/total here are against the suite lists or every test the run saw. */
function doneEvent(run: ConfigurationRun, f2p?: string[], p2p?: string[]) {
  const expected = f2p && p2p ? [...f2p, ...p2p] : run.groups.flatMap((g) => g.tests.map((t) => t.id));
  const seen = observe(run, expected);
  const passed = [...seen.values()].filter((o) => o.status === 'passed').length;
  const failedGroup = run.groups.some((g) => g.status !== 'reported');
  return {
    type: 'configuration-done' as const,
    id: run.id,
    attempt: run.attempt,
    outcome: run.infraError
      ? ('error' as const)
      : passed === expected.length && !failedGroup
        ? ('pass' as const)
        : ('fail' as const),
    passed,
    total: expected.length,
    cached: run.cached,
    durationMs: run.durationMs,
  };
}
