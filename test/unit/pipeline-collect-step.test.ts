import { describe, expect, it } from 'vitest';
import { planMatrix } from '../../src/core/matrix-plan.ts';
import type { MaterializedRepo } from '../../src/engine/git/workspace-states.ts';
import { collectStep } from '../../src/engine/pipeline/collect-step.ts';
import { API, WEB } from '../helpers/repos.ts';
import { id, reportedGroup, run } from '../helpers/runs.ts';

const F = id('api', 'creates');
const repo = (name: string, extra: Partial<MaterializedRepo> = {}): MaterializedRepo => ({
  repo: name,
  name: name.split('/')[1]!,
  report: { repo: name, url: `https://example.test/${name}.git`, base: { ref: 'main', sha: 'a'.repeat(40) } },
  ...extra,
});

describe('collect step', () => {
  const plan = planMatrix([API], 'full');
  const runs = [run(plan.configurations[0]!, [reportedGroup('api', { [F]: 'failed' })])];

  it('gathers the runs with the groups, their repositories and the suite lists', () => {
    const input = collectStep(
      plan,
      runs,
      {
        tests: [
          { name: 'api', repo: API, files: [], run: 'x', results: { format: 'tap', path: 'a' }, timeout: 1 },
          { name: 'lint', files: [], run: 'y', results: { format: 'tap', path: 'b' }, timeout: 1 },
        ],
        fail_to_pass: [F],
      },
      { targets: [repo(API)], context: [] },
    );
    expect(input).toEqual({
      plan,
      runs,
      groups: [{ name: 'api', repo: API }, { name: 'lint' }],
      failToPass: [F],
      infraErrors: [],
    });
  });

  it('carries the errors of states no configuration reached, context included', () => {
    const error = { kind: 'fetch' as const, message: 'cannot fetch', target: WEB };
    const input = collectStep(
      plan,
      runs,
      { tests: [] },
      { targets: [repo(API)], context: [repo(WEB, { error })] },
    );
    expect(input.infraErrors).toEqual([error]);
    expect(input).not.toHaveProperty('failToPass');
    expect(input).not.toHaveProperty('passToPass');
  });
});
