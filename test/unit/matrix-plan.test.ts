import { describe, expect, it } from 'vitest';
import { AUTO_FULL_CAP } from '../../src/core/matrix-mode.ts';
import { configurationId, type MatrixPlan, planMatrix, withoutTarget } from '../../src/core/matrix-plan.ts';

const A = 'acme/api';
const W = 'acme/web';
const C = 'acme/cli';
const targetsOf = (n: number) => Array.from({ length: n }, (_, i) => `org/r${i}`);
const ids = (p: MatrixPlan) => p.configurations.map((c) => c.id);
const keyOf = (applied: string[]) => [...applied].sort().join(',');

describe('planMatrix full', () => {
  it('one target: base then full', () => {
    const p = planMatrix([A], 'full');
    expect(p.mode).toBe('full');
    expect(p.configurations).toEqual([
      { id: 'base', applied: [], role: 'base' },
      { id: 'full', applied: [A], role: 'full' },
    ]);
  });

  it('two targets: base, each alone, full', () => {
    const p = planMatrix([A, W], 'full');
    expect(p.configurations).toEqual([
      { id: 'base', applied: [], role: 'base' },
      { id: 'api', applied: [A], role: 'partial' },
      { id: 'web', applied: [W], role: 'partial' },
      { id: 'full', applied: [A, W], role: 'full' },
    ]);
  });

  it('three targets: 8 configurations, smaller subsets first, ids joined with + in case order', () => {
    const p = planMatrix([A, W, C], 'full');
    expect(ids(p)).toEqual(['base', 'api', 'web', 'cli', 'api+web', 'api+cli', 'web+cli', 'full']);
    expect(p.configurations.map((c) => c.role)).toEqual([
      'base',
      'partial',
      'partial',
      'partial',
      'partial',
      'partial',
      'partial',
      'full',
    ]);
    expect(p.configurations.find((c) => c.id === 'web+cli')?.applied).toEqual([W, C]);
    expect(p.targets).toEqual([A, W, C]);
  });

  it.each([1, 2, 3, 4, 5, 6])('%i targets give 2^N distinct subsets, base first and full last', (n) => {
    const targets = targetsOf(n);
    const p = planMatrix(targets, 'full');
    expect(p.configurations).toHaveLength(2 ** n);
    expect(new Set(p.configurations.map((c) => keyOf(c.applied))).size).toBe(2 ** n);
    expect(new Set(ids(p)).size).toBe(2 ** n);
    expect(p.configurations[0]).toMatchObject({ id: 'base', applied: [], role: 'base' });
    expect(p.configurations.at(-1)).toMatchObject({ id: 'full', applied: targets, role: 'full' });
    const sizes = p.configurations.map((c) => c.applied.length);
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
  });

  it('applied lists keep case order even when not alphabetical', () => {
    const p = planMatrix(['z/zeta', 'a/alpha', 'm/mid'], 'full');
    expect(p.configurations.find((c) => c.id === 'zeta+mid')?.applied).toEqual(['z/zeta', 'm/mid']);
  });

  it('rejects no targets and duplicate targets', () => {
    expect(() => planMatrix([], 'full')).toThrow(/at least one target/);
    expect(() => planMatrix([A, A], 'full')).toThrow(/distinct/);
  });
});

describe('planMatrix leave-one-out', () => {
  it('one target: just base and full', () => {
    const p = planMatrix([A], 'leave-one-out');
    expect(p.mode).toBe('leave-one-out');
    expect(ids(p)).toEqual(['base', 'full']);
  });

  it('three targets: base, full minus each in case order, full', () => {
    const p = planMatrix([A, W, C], 'leave-one-out');
    expect(p.configurations).toEqual([
      { id: 'base', applied: [], role: 'base' },
      { id: 'web+cli', applied: [W, C], role: 'partial' },
      { id: 'api+cli', applied: [A, C], role: 'partial' },
      { id: 'api+web', applied: [A, W], role: 'partial' },
      { id: 'full', applied: [A, W, C], role: 'full' },
    ]);
  });

  it.each([2, 3, 5, 8])('%i targets give N+2 configurations', (n) => {
    const p = planMatrix(targetsOf(n), 'leave-one-out');
    expect(p.configurations).toHaveLength(n + 2);
    expect(new Set(ids(p)).size).toBe(n + 2);
    expect(p.configurations[0]?.id).toBe('base');
    expect(p.configurations.at(-1)?.id).toBe('full');
    for (const c of p.configurations.slice(1, -1)) expect(c.applied).toHaveLength(n - 1);
  });
});

describe('planMatrix auto', () => {
  it(`runs every subset up to ${AUTO_FULL_CAP} targets`, () => {
    expect(AUTO_FULL_CAP).toBe(4);
    const p = planMatrix(targetsOf(4), 'auto');
    expect(p.requested).toBe('auto');
    expect(p.mode).toBe('full');
    expect(p.configurations).toHaveLength(16);
  });

  it('switches to leave-one-out at 5 targets', () => {
    const p = planMatrix(targetsOf(5), 'auto');
    expect(p.requested).toBe('auto');
    expect(p.mode).toBe('leave-one-out');
    expect(p.configurations).toHaveLength(7);
  });

  it('is full for one target', () => {
    expect(planMatrix([A], 'auto').mode).toBe('full');
  });
});

describe('configurationId', () => {
  it('names base, full and partials by short names', () => {
    expect(configurationId([], [A, W])).toBe('base');
    expect(configurationId([A, W], [A, W])).toBe('full');
    expect(configurationId([W], [A, W, C])).toBe('web');
    expect(configurationId([A, C], [A, W, C])).toBe('api+cli');
    expect(configurationId(['solo'], ['solo', 'other'])).toBe('solo');
  });
});

describe('withoutTarget', () => {
  it('finds full minus a target in full mode', () => {
    const p = planMatrix([A, W, C], 'full');
    expect(withoutTarget(p, W)?.id).toBe('api+cli');
    expect(withoutTarget(p, A)?.id).toBe('web+cli');
  });

  it('finds full minus a target in leave-one-out mode', () => {
    const p = planMatrix(targetsOf(6), 'leave-one-out');
    const c = withoutTarget(p, 'org/r2');
    expect(c?.role).toBe('partial');
    expect(c?.applied).toEqual(targetsOf(6).filter((t) => t !== 'org/r2'));
  });

  it('is the base configuration for a single target', () => {
    expect(withoutTarget(planMatrix([A], 'full'), A)).toMatchObject({ id: 'base', role: 'base' });
    expect(withoutTarget(planMatrix([A], 'leave-one-out'), A)?.id).toBe('base');
  });

  it('for a target not in the plan matches the full configuration', () => {
    // Every target is kept, so the match is the full configuration itself.
    expect(withoutTarget(planMatrix([A, W], 'full'), 'acme/other')?.id).toBe('full');
  });
});
