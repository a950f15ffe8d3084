/**
 * A queue trace, one linked set per line (JSON Lines), what `tandem queue simulate` replays:
 * when the set arrives, which repositories it changes, how long one evaluation of it takes and
 * what that evaluation would truly say. Times are seconds from the start of the trace.
 * Documented in docs/cli.md ("tandem queue simulate").
 */

import { z } from 'zod';
import { repoKey } from '../repo-name.ts';

export const TraceSetSchema = z.strictObject({
  /** Unique within the trace; names the set in the output. */
  id: z.string().min(1),
  /** Seconds from the start of the trace at which `/tandem merge` enqueues the set. */
  arrival: z.number().nonnegative(),
  /** `owner/name` of each member's repository (one member per repository). */
  repos: z
    .array(z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'expected owner/name'))
    .min(1)
    .refine((r) => new Set(r.map((x) => repoKey(x))).size === r.length, 'a repository appears twice'),
  /** The base branch of every member (default main). */
  baseBranch: z.string().min(1).default('main'),
  /** Repositories its evaluation checks out unchanged through wiring edges. */
  wiring: z.array(z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'expected owner/name')).optional(),
  /** Seconds one evaluation of the set takes (a diagnostic run takes as long). */
  evaluation: z.number().positive(),
  /** What its evaluation says on the base tips: pass, or fail (its own changes are broken). */
  outcome: z.enum(['pass', 'fail']),
  /** Its first evaluation comes back flaky (replicates differ); re-runs say the true outcome. */
  flaky: z.boolean().default(false),
  /** Sets it passes without but fails together with (a pair failure), by id. */
  failsWith: z.array(z.string()).optional(),
});
export type TraceSet = z.infer<typeof TraceSetSchema>;
