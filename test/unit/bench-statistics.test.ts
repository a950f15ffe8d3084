/** Wilson intervals, pass@k and the exact McNemar test, against values computed by hand. */
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/core/bench-compare.ts';
import { mcnemarExact, meanPassAtK, passAtK, wilsonInterval } from '../../src/core/bench-statistics.ts';

describe('wilsonInterval', () => {
  it('matches the textbook 95% interval', () => {
    // 8/10: centre (0.8 + 0.19208) / 1.38415 = 0.71675, half 0.22607.
    expect(wilsonInterval(8, 10)).toEqual({ low: 0.4902, high: 0.9433 });
    expect(wilsonInterval(50, 100)).toEqual({ low: 0.4038, high: 0.5962 });
  });
  it('stays inside [0, 1] at the edges and covers everything without trials', () => {
    expect(wilsonInterval(0, 5)).toEqual({ low: 0, high: 0.4345 });
    expect(wilsonInterval(5, 5)).toEqual({ low: 0.5655, high: 1 });
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });
});

describe('passAtK', () => {
  it('is 1 - C(n-c, k)/C(n, k)', () => {
    expect(passAtK(5, 2, 1)).toBeCloseTo(0.4, 10);
    expect(passAtK(5, 2, 2)).toBeCloseTo(1 - 3 / 10, 10);
    expect(passAtK(5, 0, 3)).toBe(0);
    expect(passAtK(5, 3, 3)).toBe(1);
    expect(passAtK(3, 1, 3)).toBe(1);
  });
  it('averages over instances and refuses a k beyond the attempts', () => {
    expect(
      meanPassAtK(
        [
          { n: 2, c: 1 },
          { n: 2, c: 0 },
        ],
        1,
      ),
    ).toBe(0.25);
    expect(
      meanPassAtK(
        [
          { n: 2, c: 1 },
          { n: 2, c: 0 },
        ],
        2,
      ),
    ).toBe(0.5);
    expect(() => passAtK(2, 1, 3)).toThrow(/1 ≤ k ≤ n/);
  });
});

describe('mcnemarExact', () => {
  it('gives the two-sided binomial p-value on the discordant pairs', () => {
    // 1 vs 9: 2 * (1 + 10) / 1024.
    expect(mcnemarExact(1, 9)).toEqual({ onlyA: 1, onlyB: 9, pValue: 0.0214844 });
    expect(mcnemarExact(3, 3).pValue).toBe(1);
    expect(mcnemarExact(0, 0).pValue).toBe(1);
    expect(mcnemarExact(0, 6).pValue).toBe(0.03125);
  });
  it('stays finite for large counts', () => {
    const r = mcnemarExact(400, 600);
    expect(r.pValue).toBeGreaterThan(0);
    expect(r.pValue).toBeLessThan(1e-9);
    expect(mcnemarExact(5000, 5000).pValue).toBe(1);
    expect(mcnemarExact(4900, 5100).pValue).toBeGreaterThan(0.04);
  });
});

describe('compareRuns', () => {
  const ids = ['a', 'b', 'c', 'd', 'e'];
  it('pairs the runs: only-A, only-B, both, neither, McNemar and the regression', () => {
    expect(compareRuns(ids, ['a', 'b', 'c'], ['a', 'd'], 0.1)).toEqual({
      instances: 5,
      a: { resolved: 3, rate: 0.6, ci95: wilsonInterval(3, 5) },
      b: { resolved: 2, rate: 0.4, ci95: wilsonInterval(2, 5) },
      onlyA: ['b', 'c'],
      onlyB: ['d'],
      both: 1,
      neither: 1,
      pValue: 1,
      regression: 0.2,
      regressed: true,
    });
  });
  it('B better than A is no regression; without a threshold nothing is gated', () => {
    const r = compareRuns(ids, ['a'], ['a', 'b'], 0);
    expect([r.regression, r.regressed]).toEqual([-0.2, false]);
    expect(compareRuns(ids, ['a'], []).regressed).toBeUndefined();
  });
  it('fails at exactly the threshold, as --max-regression says; 0 fails on any regression only', () => {
    // 1 of 5 fewer: a regression of exactly 0.2.
    expect(compareRuns(ids, ['a', 'b'], ['a'], 0.2).regressed).toBe(true);
    expect(compareRuns(ids, ['a', 'b'], ['a'], 0.21).regressed).toBe(false);
    // 3 of 10 fewer against a threshold written as 0.3 (no floating-point slack lost).
    const ten = [...'abcdefghij'];
    expect(compareRuns(ten, ['a', 'b', 'c'], [], 0.3).regressed).toBe(true);
    expect(compareRuns(ids, ['a'], ['a'], 0).regressed).toBe(false);
    expect(compareRuns(ids, ['a', 'b'], ['a'], 0).regressed).toBe(true);
  });
});
