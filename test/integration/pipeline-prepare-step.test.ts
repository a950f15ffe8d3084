/**
 * The prepare step on real git and Docker: hidden files staged, each state materialised once and
 * announced, base prepares started before any configuration asks, a configuration's job holding
 * its states' prepared folders, and a target whose head is missing keeping only the
 * configurations that apply it from running.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { afterEach, describe, expect, it } from 'vitest';
import type { EvaluationEvent } from '../../src/core/evaluation-event.ts';
import { planMatrix } from '../../src/core/matrix-plan.ts';
import { prepareStep } from '../../src/engine/pipeline/prepare-step.ts';
import type { WorkspaceRepo } from '../../src/engine/run-configuration.ts';
import type { Sandbox } from '../../src/engine/sandbox/sandbox.ts';
import { createSandbox } from '../../src/engine/sandbox/sandbox-factory.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { SANDBOX_IMAGE, shellCase, shellGroup, tapScript } from '../helpers/example-cases.ts';

const docker = dockerSuite('pipeline-prepare-step');
const limits = { memoryBytes: 512 * 1024 * 1024, cpus: 1, pids: 256 };
let sandbox: Sandbox | undefined;

afterEach(async () => {
  await sandbox?.dispose();
  sandbox = undefined;
});

async function prepareCase(name: string, heads?: Record<string, string>) {
  const c = await shellCase({
    name,
    repos: [{ name: 'app', base: { STATE: 'base\n' }, head: { STATE: 'head\n' } }],
    ...(heads ? { heads } : {}),
    suite: {
      name: `${name}-suite`,
      image: SANDBOX_IMAGE,
      prepare: { 'acme/app': { run: 'mkdir -p deps && cp STATE deps/from', outputs: ['deps'] } },
      tests: [shellGroup('checks')],
    },
    hidden: { 'hidden/checks.sh': tapScript('checks.tap', [{ name: 'ok', cmd: 'true' }]) },
  });
  docker.track(c.root);
  const events: EvaluationEvent[] = [];
  sandbox = createSandbox('docker');
  const runDir = docker.track(await mkdtemp(path.join(c.root, 'run-')));
  const prepared = await prepareStep(c.input, {
    sandbox,
    limits,
    cacheDir: docker.cacheDir,
    runDir,
    options: { prepareNetwork: 'host' },
    slots: pLimit(2),
    emit: (e) => events.push(e),
  });
  return { c, events, prepared, runDir };
}

const depsOf = async (r: WorkspaceRepo) => readFile(path.join(r.deps!.mounts[0]!.hostPath, 'from'), 'utf8');

describe('prepare step', () => {
  it('materialises each state once, stages hidden files, and prepares each state for its configurations', async () => {
    const { events, prepared, runDir } = await prepareCase('prepare-step');
    expect(
      events.filter((e) => e.type === 'state-ready').map((e) => e.type === 'state-ready' && e.state),
    ).toEqual(['base', 'head']);
    expect(events.find((e) => e.type === 'resolved-refs')).toMatchObject({
      repos: [{ repo: 'acme/app', base: prepared.repos.targets[0]!.base!.commitSha }],
    });
    expect(prepared.imageId).toMatch(/^sha256:/);
    expect(prepared.hiddenRoot).toBe(path.join(runDir, 'hidden'));
    expect(await readFile(path.join(prepared.hiddenDirs.get('checks')!, 'checks.sh'), 'utf8')).toContain(
      'TAP',
    );

    const plan = planMatrix(['acme/app'], 'full');
    const [base, full] = [plan.configurations[0]!, plan.configurations[1]!];
    const baseJob = await prepared.states.jobFor(base, 0);
    const fullJob = await prepared.states.jobFor(full, 0);
    const again = await prepared.states.jobFor(full, 1);
    if (!Array.isArray(baseJob.repos) || !Array.isArray(fullJob.repos) || !Array.isArray(again.repos))
      throw new Error('expected prepared repositories');
    expect(await depsOf(baseJob.repos[0]!)).toBe('base\n');
    expect(await depsOf(fullJob.repos[0]!)).toBe('head\n');
    // Once per state: the rerun's job is the same prepared folder, and two prepares were announced.
    expect(again.repos[0]!.deps!.key).toBe(fullJob.repos[0]!.deps!.key);
    expect(events.filter((e) => e.type === 'prepare-done')).toHaveLength(2);
  });

  it('keeps a head that does not exist from only the configurations that apply it', async () => {
    const { prepared } = await prepareCase('prepare-step-missing-head', { app: 'no-such-branch' });
    const plan = planMatrix(['acme/app'], 'full');
    const baseJob = await prepared.states.jobFor(plan.configurations[0]!, 0);
    const fullJob = await prepared.states.jobFor(plan.configurations[1]!, 0);
    expect(Array.isArray(baseJob.repos)).toBe(true);
    expect(fullJob.repos).toMatchObject({ kind: 'unknown-ref', target: 'acme/app' });
  });
});
