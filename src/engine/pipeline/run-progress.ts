/**
 * The `configuration-done` progress events, judged by grading itself (core/grading.ts `judgeRun`
 * with the lists of core/expected-tests.ts), so what a face announces is what the report says.
 * Without both suite lists, the all-base run decides what is expected: a configuration that
 * finishes before it is announced once the all-base run is in. When the all-base run could not run
 * some tests (a group or package that did not build there), the full configuration's first run
 * names them (core/expected-tests.ts `unbuiltAtBase`), so every event then waits for it too. When
 * this evaluation does not run a configuration the lists need (a shard, `only`), its
 * configurations are announced `unjudged`.
 */
import type { ConfigurationDoneEvent, EvaluationEvent } from '../../core/evaluation-event.ts';
import { classifyTests, suiteLists, type TestLists } from '../../core/expected-tests.ts';
import { judgeRun } from '../../core/grading.ts';
import type { ConfigurationRun } from '../../core/run.schema.ts';
import { isSyntheticFailure } from '../../core/test-id.ts';

export interface RunProgress {
  /** A run finished: its event goes out now, or once the all-base run is in. */
  done(run: ConfigurationRun): void;
}

export interface RunProgressSpec {
  failToPass?: string[] | undefined;
  passToPass?: string[] | undefined;
  /** The all-base configuration's id when this evaluation runs it. */
  baseId?: string | undefined;
  /** The full configuration's id when this evaluation runs it. */
  fullId?: string | undefined;
  emit: (e: EvaluationEvent) => void;
}

export function doneEvent(
  run: ConfigurationRun,
  lists: TestLists | string | undefined,
): ConfigurationDoneEvent {
  const judged =
    lists === undefined ? { outcome: 'unjudged' as const, passed: 0, total: 0 } : judgeRun(run, lists);
  return {
    type: 'configuration-done',
    id: run.id,
    attempt: run.attempt,
    ...judged,
    cached: run.cached,
    durationMs: run.durationMs,
  };
}

/** Whether the all-base run left tests unrun, so the full run completes its lists. */
function brokeAtBase(base: ConfigurationRun): boolean {
  return base.groups.some((g) => g.status !== 'reported' || g.tests.some((t) => isSyntheticFailure(t.id)));
}

export function runProgress(spec: RunProgressSpec): RunProgress {
  const fromSuite = suiteLists(spec.failToPass, spec.passToPass);
  // Without both lists, what is expected depends on the all-base run (core/expected-tests.ts),
  // and, when it could not run some tests, on the full configuration's first run.
  let lists: TestLists | string | undefined = fromSuite;
  let unjudged = false;
  let base: ConfigurationRun | undefined;
  let full: ConfigurationRun | undefined;
  const waiting: ConfigurationRun[] = [];
  // The all-base run's event first, then the others in the order they finished.
  const release = () => {
    const ordered = [...waiting.filter((w) => w === base), ...waiting.filter((w) => w !== base)];
    waiting.length = 0;
    for (const w of ordered) spec.emit(doneEvent(w, unjudged ? undefined : lists));
  };
  return {
    done(run) {
      if (lists !== undefined || unjudged) return spec.emit(doneEvent(run, unjudged ? undefined : lists));
      if (spec.baseId === undefined) return spec.emit(doneEvent(run, undefined));
      waiting.push(run);
      if (run.attempt === 0 && run.id === spec.baseId) base = run;
      if (run.attempt === 0 && run.id === spec.fullId) full = run;
      if (!base) return;
      if (!base.infraError && brokeAtBase(base) && !full) {
        if (spec.fullId !== undefined) return;
        unjudged = true;
        return release();
      }
      lists = classifyTests({ ...spec, runs: full ? [base, full] : [base] }, base, full);
      release();
    },
  };
}
