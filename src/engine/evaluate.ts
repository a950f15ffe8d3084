/**
 * The evaluation pipeline shared by the CLI, the App and the Action, composed of its steps
 * (engine/pipeline/): plan → prepare states → run configurations (collecting each group's
 * results) → collect → grade (core/grading.ts) → report model. Nothing here prints: progress goes
 * out as events, judged by grading like the report.
 */
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { grade } from '../core/grading.ts';
import { parseMemory } from '../core/memory-size.ts';
import { reportedExamples } from '../core/observed-tests.ts';
import type { Report } from '../core/report.schema.ts';
import type { EvaluationInput, EvaluationOptions } from './evaluate-api.ts';
import { ensureWritableFolder, removeTree } from './fs-util.ts';
import { collectStep } from './pipeline/collect-step.ts';
import { planEvent, planStep } from './pipeline/plan-step.ts';
import { prepareStep } from './pipeline/prepare-step.ts';
import { reportStep } from './pipeline/report-step.ts';
import { runProgress } from './pipeline/run-progress.ts';
import { runSlots, runStep } from './pipeline/run-step.ts';
import { ResultCache } from './results/result-cache.ts';
import { createSandbox } from './sandbox/sandbox-factory.ts';
import { defaultScratchDir } from './scratch-dir.ts';

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
    const planned = planStep(
      caseFile.targets.map((t) => t.repo),
      options,
    );
    emit(planEvent(planned));

    const slots = runSlots(options);
    const prepared = await prepareStep(input, {
      sandbox,
      limits,
      cacheDir,
      runDir,
      options,
      slots: slots.slots,
      emit,
    });

    const cache = options.useResultCache
      ? new ResultCache(path.join(cacheDir, 'results'), (message) =>
          emit({ type: 'log', level: 'warn', message }),
        )
      : undefined;
    const runs = await runStep(planned.attempts, {
      states: prepared.states,
      slots,
      emit,
      signal: options.signal,
      progress: runProgress({
        failToPass: suite.fail_to_pass,
        passToPass: suite.pass_to_pass,
        baseId: planned.wanted.find((c) => c.role === 'base')?.id,
        fullId: planned.wanted.find((c) => c.role === 'full')?.id,
        emit,
      }),
      run: {
        suite,
        suiteHash: prepared.suiteHash,
        imageId: prepared.imageId,
        sandbox,
        limits,
        hiddenRoot: prepared.hiddenRoot,
        hiddenDirs: prepared.hiddenDirs,
        runDir,
        ...(cache ? { cache } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
    });

    options.onReportedExamples?.(reportedExamples(runs));
    const grading = collectStep(planned.plan, runs, suite, prepared.repos);
    return reportStep({
      name: caseFile.name,
      startedAt: started,
      finishedAt: Date.now(),
      sandbox: sandbox.kind,
      suite,
      suiteHash: prepared.suiteHash,
      imageId: prepared.imageId,
      plan: planned.plan,
      options,
      repos: prepared.repos,
      grading,
      graded: grade(grading),
      leakFilter: prepared.leakFilter,
    });
  } finally {
    options.signal?.removeEventListener('abort', abort);
    await sandbox.dispose().catch(() => {});
    await removeTree(runDir);
  }
}
