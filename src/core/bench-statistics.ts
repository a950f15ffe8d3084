/**
 * Statistics for benchmark results that people can trust: Wilson score intervals on resolved
 * rates, the unbiased pass@k estimator (Chen et al. 2021) over K attempts per instance, and the
 * exact McNemar test on two runs over the same instances. Pure.
 */

export interface Interval {
  low: number;
  high: number;
}

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * Wilson score interval for `successes` out of `trials` (95% by default): unlike the normal
 * approximation it stays inside [0, 1] and is honest at 0/n and n/n, the usual case on small
 * benchmarks. 0 trials: the whole of [0, 1].
 */
export function wilsonInterval(successes: number, trials: number, z = Z95): Interval {
  if (trials <= 0) return { low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const denom = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denom;
  return { low: round(Math.max(0, centre - half)), high: round(Math.min(1, centre + half)) };
}

/**
 * pass@k for one instance with `n` attempts of which `c` resolved: the chance that at least one
 * of k attempts drawn without replacement resolves, 1 - C(n-c, k) / C(n, k).
 */
export function passAtK(n: number, c: number, k: number): number {
  if (k < 1 || k > n) throw new RangeError(`pass@${k} needs 1 ≤ k ≤ n (n = ${n})`);
  if (n - c < k) return 1;
  // The product form avoids huge binomials.
  let miss = 1;
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i;
  return 1 - miss;
}

/** pass@k of a model: the mean over its instances of each instance's pass@k. */
export function meanPassAtK(perInstance: ReadonlyArray<{ n: number; c: number }>, k: number): number {
  if (perInstance.length === 0) return 0;
  return round(perInstance.reduce((s, x) => s + passAtK(x.n, x.c, k), 0) / perInstance.length);
}

export interface McNemar {
  /** Resolved by A only. */
  onlyA: number;
  /** Resolved by B only. */
  onlyB: number;
  /** Two-sided exact p-value (binomial test on the discordant pairs, p = 1/2). */
  pValue: number;
}

/**
 * The exact McNemar test: only instances the two runs disagree on carry information; under "no
 * difference" each is equally likely to go either way, so the smaller count is binomial(n, 1/2).
 */
export function mcnemarExact(onlyA: number, onlyB: number): McNemar {
  const n = onlyA + onlyB;
  const k = Math.min(onlyA, onlyB);
  let tail = 0;
  // Sum of C(n, i) / 2^n for i ≤ k, each term in log space so 2^-n cannot underflow the sum.
  let logTerm = -n * Math.LN2;
  for (let i = 0; i <= k; i++) {
    tail += Math.exp(logTerm);
    logTerm += Math.log((n - i) / (i + 1));
  }
  return { onlyA, onlyB, pValue: Number(Math.min(1, 2 * tail).toPrecision(6)) };
}

export function round(x: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
