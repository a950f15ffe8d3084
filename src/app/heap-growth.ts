/**
 * How fast the App's heap may grow. After a major collection V8 sets the next one's threshold at
 * up to about 4× the live heap when the program allocates fast. Under a burst of webhooks the
 * App's live heap stays near 40 MB (a heap snapshot taken at the peak of `perf/app-bench.ts`),
 * yet V8 let garbage push its RSS to about 290 MB; growing by at most 25% per collection kept it
 * near 185 MB in the same scenario at the same p99. A growth policy, not a cap: a larger
 * installation's heap still grows as far as it needs.
 */
import { setFlagsFromString } from 'node:v8';

/** Called once at process start, before the App allocates much (the flag applies from the next collection). */
export function limitHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=25');
}
