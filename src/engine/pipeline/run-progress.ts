/**
 * The `configuration-done` progress events, judged by grading itself (core/grading.ts `judgeRun`
 * with the lists of core/expected-tests.ts), so what a face announces is what the report says.
 * Without both suite lists, the all-base run decides what is expected: a configuration that
 * finishes before it is announced once the all-base run is in. When this evaluation does not run
 * the all-base configuration (a shard, `only`), its configurations are announced `unjudged`.
 */
import type { ConfigurationDoneEvent, EvaluationEvent } from '../../core/evaluation-event.ts';
import { classifyTests, suiteLists, type TestLists } from '../../core/expected-tests.ts';
import { judgeRun } from '../../core/grading.ts';
import type { ConfigurationRun } from '../../core/run.schema.ts';

export interface RunProgress {
  /** A run finished: its event goes out now, or once the all-base run is in. */
  done(run: ConfigurationRun): void;
}

export interface RunProgressSpec {
  failToPass?: string[] | undefined;
  passToPass?: string[] | undefined;
  /** The all-base configuration's id when this evaluation runs it. */
  baseId?: string | undefined;
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

export function runProgress(spec: RunProgressSpec): RunProgress {
  const fromSuite = suiteLists(spec.failToPass, spec.passToPass);
  // Without both lists, what is expected depends on the all-base run alone (core/expected-tests.ts).
  let lists: TestLists | string | undefined = fromSuite;
  const waiting: ConfigurationRun[] = [];
  return {
    done(run) {
      if (lists !== undefined) return spec.emit(doneEvent(run, lists));
      if (spec.baseId === undefined) return spec.emit(doneEvent(run, undefined));
      if (run.id !== spec.baseId || run.attempt !== 0) return void waiting.push(run);
      lists = classifyTests({ ...spec, runs: [run] }, run);
      spec.emit(doneEvent(run, lists));
      for (const w of waiting.splice(0)) spec.emit(doneEvent(w, lists));
    },
  };
}
