/**
 * Shards: a matrix split across jobs (`tandem eval --shard i/n`, the Action's `shard: i/n`), and
 * the plan a workflow's `strategy.matrix` is built from (`tandem plan --shards n`, the Action's
 * `plan: n`). One schema, one split rule, one cap, for every face. Pure.
 */
import { z } from 'zod';
import type { ResolvedMatrixMode } from './matrix-mode.ts';
import type { MatrixPlan, PlannedConfiguration } from './matrix-plan.ts';

const SHARD_TEXT = /^(\d{1,4})\/(\d{1,4})$/;

/** `"i/n"` → `{index: i, count: n}`, with 1 ≤ i ≤ n. */
export const shardSchema = z.string().transform((text, ctx) => {
  const m = SHARD_TEXT.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) {
    ctx.addIssue({ code: 'custom', message: 'expected "i/n" with 1 <= i <= n (share i of n, e.g. "2/3")' });
    return z.NEVER;
  }
  return { index, count };
});
export type Shard = z.output<typeof shardSchema>;

/** Most shards a plan may ask for (a workflow matrix allows 256 jobs). */
export const MAX_SHARDS = 256;

/** `i/n`, as shard labels and report names show it. */
export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/** Round-robin share of the configurations for shard i of n (1-based); deterministic. */
export function shardConfigurations(plan: MatrixPlan, shard: Shard): PlannedConfiguration[] {
  return plan.configurations.filter((_, k) => k % shard.count === shard.index - 1);
}

export interface PlannedShard {
  /** `i/n`: the value a matrix job passes back as `--shard` / `shard:`. */
  shard: string;
  /** Configuration ids this shard runs. */
  configurations: string[];
}

export interface ShardedPlan {
  mode: ResolvedMatrixMode;
  configurations: PlannedConfiguration[];
  shards: PlannedShard[];
}

/**
 * The plan split into `requested` shards, capped at the number of configurations: more shards
 * than configurations would start jobs with nothing to run.
 */
export function planShards(plan: MatrixPlan, requested: number): ShardedPlan {
  if (!Number.isInteger(requested) || requested < 1)
    throw new RangeError('shards must be a whole number >= 1');
  const count = Math.min(requested, plan.configurations.length);
  const shards = Array.from({ length: count }, (_, k) => {
    const shard = { index: k + 1, count };
    return {
      shard: formatShard(shard),
      configurations: shardConfigurations(plan, shard).map((c) => c.id),
    };
  });
  return { mode: plan.mode, configurations: plan.configurations, shards };
}
