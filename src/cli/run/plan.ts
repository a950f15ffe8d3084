import { InputError } from '../../core/errors.ts';
import { planMatrix } from '../../core/matrix-plan.ts';
import { MAX_SHARDS, planShards } from '../../core/shard-plan.ts';
import { loadCase } from '../../engine/case-loader.ts';
import { parseEvalFlags } from '../eval-options.ts';

/** `tandem plan`: the configurations and their shards as JSON on stdout, for a workflow matrix. */
export async function planCommand(
  caseFile: string,
  raw: { matrix: string; shards: string },
): Promise<number> {
  const flags = parseEvalFlags({ matrix: raw.matrix });
  const shards = Number(raw.shards);
  if (!Number.isInteger(shards) || shards < 1 || shards > MAX_SHARDS)
    throw new InputError(`option --shards: expected a whole number from 1 to ${MAX_SHARDS}`);
  const input = await loadCase(caseFile);
  const plan = planMatrix(
    input.caseFile.targets.map((t) => t.repo),
    flags.matrix,
  );
  // Capped at the number of configurations, as the Action's plan step is: no empty shard.
  process.stdout.write(`${JSON.stringify(planShards(plan, shards), null, 2)}\n`);
  return 0;
}
