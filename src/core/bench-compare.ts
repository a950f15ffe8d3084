/**
 * Two benchmark runs over the same instances, paired: which instances one resolved and the other
 * did not, both resolved rates with Wilson 95% intervals, the exact McNemar test on the pair, and
 * whether B is worse than A beyond a threshold (a gate for a new agent). Pure.
 */
import { type Interval, mcnemarExact, round, wilsonInterval } from './bench-statistics.ts';

export interface RunComparison {
  instances: number;
  a: { resolved: number; rate: number; ci95: Interval };
  b: { resolved: number; rate: number; ci95: Interval };
  onlyA: string[];
  onlyB: string[];
  both: number;
  neither: number;
  /** Two-sided exact McNemar p-value on onlyA vs onlyB. */
  pValue: number;
  /** rate(A) - rate(B): how much worse B is (negative: B is better). */
  regression: number;
  /** With a threshold: whether the regression reaches it (at exactly the threshold: regressed;
   * a threshold of 0 fails on any regression, never on an equal run). */
  regressed?: boolean;
}

/**
 * `instances`: the ids both runs are judged on (an instance a run has no result for counts as
 * not resolved by it); `resolvedA` / `resolvedB`: the ids each resolved.
 */
export function compareRuns(
  instances: readonly string[],
  resolvedA: readonly string[],
  resolvedB: readonly string[],
  maxRegression?: number,
): RunComparison {
  const ids = [...new Set(instances)].sort();
  const inA = new Set(resolvedA);
  const inB = new Set(resolvedB);
  const onlyA = ids.filter((id) => inA.has(id) && !inB.has(id));
  const onlyB = ids.filter((id) => inB.has(id) && !inA.has(id));
  const both = ids.filter((id) => inA.has(id) && inB.has(id)).length;
  const n = ids.length;
  const side = (resolved: number) => ({
    resolved,
    rate: n === 0 ? 0 : round(resolved / n),
    ci95: wilsonInterval(resolved, n),
  });
  const a = side(both + onlyA.length);
  const b = side(both + onlyB.length);
  const exact = n === 0 ? 0 : (onlyA.length - onlyB.length) / n;
  const regression = round(exact);
  return {
    instances: n,
    a,
    b,
    onlyA,
    onlyB,
    both,
    neither: n - both - onlyA.length - onlyB.length,
    pValue: mcnemarExact(onlyA.length, onlyB.length).pValue,
    regression,
    ...(maxRegression !== undefined ? { regressed: exact > 0 && exact >= maxRegression - 1e-12 } : {}),
  };
}
