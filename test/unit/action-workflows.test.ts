/**
 * action.yml and the example evaluator workflows agree: every `with:` key given to the Action is
 * an input it declares, every output read is one it sets, and the sharded workflow wires
 * plan → shards → merge through the `shards` output and the partial-report artifacts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const load = (rel: string) => YAML.parse(readFileSync(path.join(ROOT, rel), 'utf8'));

interface Step {
  uses?: string;
  id?: string;
  with?: Record<string, unknown>;
  if?: string;
}
interface Job {
  needs?: string;
  if?: string;
  steps: Step[];
  strategy?: { matrix: Record<string, unknown> };
  outputs?: Record<string, string>;
}

const action = load('action.yml');
/** A GitHub expression as it appears in a workflow: `${{ ... }}`. */
const expr = (inner: string) => ['$', '{{ ', inner, ' }}'].join('');
const tandemSteps = (job: Job) => job.steps.filter((s) => s.uses === './.github/actions/tandem');

describe('action.yml', () => {
  it('runs dist/index.js on node24', () => {
    expect(action.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
    expect(Object.keys(action.inputs).sort()).toEqual(
      [
        'case',
        'context',
        'matrix',
        'merge',
        'plan',
        'pull-requests',
        'report',
        'reruns',
        'reveal',
        'shard',
        'suite',
        'token',
      ].sort(),
    );
    expect(Object.keys(action.outputs)).toEqual(
      expect.arrayContaining(['resolved', 'verdict', 'report-path', 'shards']),
    );
  });
});

describe.each(['examples/workflows/tandem.yml', 'examples/workflows/tandem-sharded.yml'])('%s', (file) => {
  const wf = load(file) as { on: Record<string, unknown>; jobs: Record<string, Job> };
  const text = readFileSync(path.join(ROOT, file), 'utf8');

  it('is triggered by workflow_dispatch and repository_dispatch', () => {
    expect(Object.keys(wf.on).sort()).toEqual(['repository_dispatch', 'workflow_dispatch']);
  });

  it('declares every input the App dispatches (GitHub refuses a dispatch with undeclared inputs)', () => {
    const inputs = (wf.on.workflow_dispatch as { inputs: Record<string, { required?: boolean }> }).inputs;
    expect(Object.keys(inputs).sort()).toEqual(
      ['context', 'evaluation-id', 'matrix', 'pull-requests', 'suite'].sort(),
    );
    // The App leaves `context` out when every suite repository has a PR.
    expect(inputs.context?.required).toBe(false);
  });

  it('gives the Action only inputs it declares and reads only outputs it sets', () => {
    const steps = Object.values(wf.jobs).flatMap(tandemSteps);
    expect(steps.length).toBeGreaterThan(0);
    for (const s of steps)
      for (const key of Object.keys(s.with ?? {})) expect(Object.keys(action.inputs)).toContain(key);
    for (const m of text.matchAll(/steps\.(?:tandem|plan)\.outputs\.([\w-]+)/g)) {
      expect(Object.keys(action.outputs)).toContain(m[1]);
    }
  });

  it('uploads the merged report as the `tandem-report` artifact', () => {
    expect(text).toMatch(/name: tandem-report\n\s+path: \$\{\{ steps\.tandem\.outputs\.report-path \}\}/);
  });
});

describe('the sharded workflow', () => {
  const wf = load('examples/workflows/tandem-sharded.yml') as { jobs: Record<string, Job> };
  it('plans, fans out over the planned shards, and merges even after a failed shard', () => {
    const { plan, shard, merge } = wf.jobs as Record<string, Job>;
    expect(tandemSteps(plan!)[0]?.with?.plan).toBeGreaterThan(0);
    expect(plan!.outputs?.shards).toBe(expr('steps.plan.outputs.shards'));
    expect(shard!.needs).toBe('plan');
    expect(shard!.strategy?.matrix.shard).toBe(expr('fromJSON(needs.plan.outputs.shards)'));
    expect(tandemSteps(shard!)[0]?.with?.shard).toBe(expr('matrix.shard'));
    expect(merge!.needs).toBe('shard');
    expect(merge!.if).toBe(expr('!cancelled()'));
    const download = merge!.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'));
    expect(download?.with).toMatchObject({
      pattern: 'tandem-partial-*',
      path: 'partials',
      'merge-multiple': true,
    });
    expect(tandemSteps(merge!)[0]?.with).toEqual({ merge: 'partials/*.json' });
  });
});
