import { describe, expect, it } from 'vitest';
import { planEvent, planStep } from '../../src/engine/pipeline/plan-step.ts';
import { API, WEB } from '../helpers/repos.ts';

describe('plan step', () => {
  it('plans every configuration, reruns only the full one, and runs base and full first', () => {
    const p = planStep([API, WEB], { matrix: 'full', reruns: 2 });
    expect(p.wanted.map((c) => c.id)).toEqual(['base', 'api', 'web', 'full']);
    // The verdict first (base classifies, full decides), then the rest of the matrix.
    expect(p.attempts.map((a) => `${a.configuration.id}#${a.attempt}`)).toEqual([
      'base#0',
      'full#0',
      'api#0',
      'web#0',
      'full#1',
      'full#2',
    ]);
    expect(planEvent(p)).toEqual({
      type: 'plan',
      mode: 'full',
      configurations: [
        { id: 'base', applied: [] },
        { id: 'api', applied: [API] },
        { id: 'web', applied: [WEB] },
        { id: 'full', applied: [API, WEB] },
      ],
    });
  });

  it('keeps the share `only` names, in plan order, while the plan stays whole', () => {
    const p = planStep([API, WEB], { matrix: 'full', reruns: 0, only: ['full', 'api'] });
    expect(p.plan.configurations).toHaveLength(4);
    expect(p.wanted.map((c) => c.id)).toEqual(['api', 'full']);
    expect(p.attempts).toHaveLength(2);
  });
});
