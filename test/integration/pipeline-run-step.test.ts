/**
 * The run step on real git and Docker: every attempt runs once (the full configuration once more
 * per rerun) and each is announced as grading judges it. A configuration whose only non-passing
 * test was skipped (on base too: neither F2P nor P2P) is announced `pass`, as the report says.
 */
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigurationDoneEvent, EvaluationEvent } from '../../src/core/evaluation-event.ts';
import { planStep } from '../../src/engine/pipeline/plan-step.ts';
import { prepareStep } from '../../src/engine/pipeline/prepare-step.ts';
import { runProgress } from '../../src/engine/pipeline/run-progress.ts';
import { runSlots, runStep } from '../../src/engine/pipeline/run-step.ts';
import type { Sandbox } from '../../src/engine/sandbox/sandbox.ts';
import { createSandbox } from '../../src/engine/sandbox/sandbox-factory.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { SANDBOX_IMAGE, shellCase, shellGroup } from '../helpers/example-cases.ts';

const docker = dockerSuite('pipeline-run-step');
let sandbox: Sandbox | undefined;

afterEach(async () => {
  await sandbox?.dispose();
  sandbox = undefined;
});

/** TAP: `fixed` passes with the PR's feature file, `health` always, `database` is always skipped. */
const CHECKS = [
  '#!/bin/sh',
  'out="$TANDEM_RESULTS/checks.tap"',
  'echo "TAP version 13" > "$out"; echo "1..3" >> "$out"',
  'if test -f app/feature.txt; then echo "ok 1 - fixed" >> "$out"; else echo "not ok 1 - fixed" >> "$out"; fi',
  'echo "ok 2 - health" >> "$out"',
  'echo "ok 3 - database # SKIP no database in the sandbox" >> "$out"',
  '',
].join('\n');

async function skippedCase() {
  const c = await shellCase({
    name: 'run-step-skipped',
    repos: [{ name: 'app', base: { 'app.txt': 'app\n' }, head: { 'feature.txt': 'new\n' } }],
    suite: { name: 'run-step-suite', image: SANDBOX_IMAGE, tests: [shellGroup('checks')] },
    hidden: { 'hidden/checks.sh': CHECKS },
  });
  docker.track(c.root);
  return c;
}

const dones = (events: EvaluationEvent[]) =>
  events.filter((e): e is ConfigurationDoneEvent => e.type === 'configuration-done');

describe('run step', () => {
  it('runs every attempt and announces each as grading judges it', async () => {
    const c = await skippedCase();
    const events: EvaluationEvent[] = [];
    const emit = (e: EvaluationEvent) => events.push(e);
    sandbox = createSandbox('docker');
    const limits = { memoryBytes: 512 * 1024 * 1024, cpus: 1, pids: 256 };
    const runDir = docker.track(await mkdtemp(path.join(c.root, 'run-')));
    const planned = planStep(['acme/app'], { matrix: 'full', reruns: 1 });
    const slots = runSlots({ jobs: 2 });
    const prepared = await prepareStep(c.input, {
      sandbox,
      limits,
      cacheDir: docker.cacheDir,
      runDir,
      options: { prepareNetwork: 'host' },
      slots: slots.slots,
      emit,
    });
    const runs = await runStep(planned.attempts, {
      states: prepared.states,
      slots,
      emit,
      progress: runProgress({ baseId: 'base', emit }),
      run: {
        suite: c.input.suite,
        suiteHash: prepared.suiteHash,
        imageId: prepared.imageId,
        sandbox,
        limits,
        hiddenRoot: prepared.hiddenRoot,
        hiddenDirs: prepared.hiddenDirs,
        runDir,
      },
    });
    expect(runs.map((r) => `${r.id}#${r.attempt}`)).toEqual(['base#0', 'full#0', 'full#1']);
    expect(events.filter((e) => e.type === 'configuration-start')).toHaveLength(3);
    expect(
      dones(events)
        .map((e) => `${e.id}#${e.attempt} ${e.outcome} ${e.passed}/${e.total}`)
        .sort(),
    ).toEqual(['base#0 fail 1/2', 'full#0 pass 2/2', 'full#1 pass 2/2']);
  });

  it('announces a configuration with a skipped (non-F2P) test as pass, consistent with the report', async () => {
    const c = await skippedCase();
    const events: EvaluationEvent[] = [];
    const report = await docker.evaluate(c.input, { onEvent: (e) => events.push(e), useResultCache: false });
    const full = report.configurations.find((x) => x.id === 'full')!;
    expect(full).toMatchObject({ outcome: 'pass', passed: 2, total: 2 });
    expect(report.tests.ignored).toEqual(['checks::::database']);
    const announced = Object.fromEntries(dones(events).map((e) => [e.id, [e.outcome, e.passed, e.total]]));
    expect(announced).toEqual(
      Object.fromEntries(report.configurations.map((x) => [x.id, [x.outcome, x.passed, x.total]])),
    );
  });
});
