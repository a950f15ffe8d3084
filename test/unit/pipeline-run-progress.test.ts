/**
 * Progress events take their pass/fail from grading: each `configuration-done` says what the
 * report says for that configuration, with or without suite lists, before or after the all-base
 * run is in.
 */
import { describe, expect, it } from 'vitest';
import type { ConfigurationDoneEvent, EvaluationEvent } from '../../src/core/evaluation-event.ts';
import { grade } from '../../src/core/grading.ts';
import { planMatrix } from '../../src/core/matrix-plan.ts';
import type { ConfigurationRun } from '../../src/core/run.schema.ts';
import { runProgress } from '../../src/engine/pipeline/run-progress.ts';
import { API } from '../helpers/repos.ts';
import { failedGroup, id, reportedGroup, run } from '../helpers/runs.ts';

const FIX = id('checks', 'new field');
const KEEP = id('checks', 'health');
const SKIP = id('checks', 'needs a database');
const plan = planMatrix([API], 'full');
const [BASE, FULL] = [plan.configurations[0]!, plan.configurations[1]!];

function collect(spec: Partial<Parameters<typeof runProgress>[0]> = {}) {
  const events: ConfigurationDoneEvent[] = [];
  const emit = (e: EvaluationEvent) => {
    if (e.type === 'configuration-done') events.push(e);
  };
  return { events, progress: runProgress({ baseId: BASE.id, emit, ...spec }) };
}

const baseRun = run(BASE, [
  reportedGroup('checks', { [FIX]: 'failed', [KEEP]: 'passed', [SKIP]: 'skipped' }),
]);
const fullRun = run(FULL, [
  reportedGroup('checks', { [FIX]: 'passed', [KEEP]: 'passed', [SKIP]: 'skipped' }),
]);
const groups = [{ name: 'checks' }];

function reportOutcomes(runs: ConfigurationRun[]) {
  const g = grade({ plan, runs, groups });
  return Object.fromEntries(g.configurations.map((c) => [c.id, [c.outcome, c.passed, c.total]]));
}

describe('progress events judged by grading', () => {
  it('announces a configuration with a skipped (non-F2P) test as pass, as the report says', () => {
    const { events, progress } = collect();
    progress.done(baseRun);
    progress.done(fullRun);
    const announced = Object.fromEntries(events.map((e) => [e.id, [e.outcome, e.passed, e.total]]));
    expect(announced).toEqual({ base: ['fail', 1, 2], full: ['pass', 2, 2] });
    expect(announced).toEqual(reportOutcomes([baseRun, fullRun]));
  });

  it('holds a configuration that finishes before the all-base run until it is in', () => {
    const { events, progress } = collect();
    progress.done(fullRun);
    expect(events).toEqual([]);
    progress.done(baseRun);
    expect(events.map((e) => [e.id, e.outcome])).toEqual([
      ['base', 'fail'],
      ['full', 'pass'],
    ]);
  });

  it('judges at once against both suite lists, a listed skipped test failing as in the report', () => {
    const { events, progress } = collect({ failToPass: [FIX, SKIP], passToPass: [KEEP] });
    progress.done(fullRun);
    expect(events.map((e) => [e.id, e.outcome, e.passed, e.total])).toEqual([['full', 'fail', 2, 3]]);
    const g = grade({ plan, runs: [baseRun, fullRun], groups, failToPass: [FIX, SKIP], passToPass: [KEEP] });
    expect(g.configurations.find((c) => c.id === 'full')?.outcome).toBe('fail');
  });

  it('fails a configuration whose group crashed, and errs every one when the all-base run has no result', () => {
    const crashed = run(FULL, [failedGroup('checks', 'crashed')]);
    const a = collect();
    a.progress.done(baseRun);
    a.progress.done(crashed);
    expect(a.events.map((e) => e.outcome)).toEqual(['fail', 'fail']);
    const b = collect();
    b.progress.done(fullRun);
    b.progress.done(run(BASE, [], { infraError: { kind: 'engine', message: 'docker went away' } }));
    expect(b.events.map((e) => [e.id, e.outcome])).toEqual([
      ['base', 'error'],
      ['full', 'error'],
    ]);
  });

  it('announces configurations unjudged when this evaluation does not run the all-base one', () => {
    const { events, progress } = collect({ baseId: undefined });
    progress.done(fullRun);
    expect(events.map((e) => [e.id, e.outcome])).toEqual([['full', 'unjudged']]);
  });
});
