import { InputError } from '../../core/errors.ts';
import { planMatrix, shardConfigurations } from '../../core/matrix-plan.ts';
import { loadCase } from '../../engine/case-loader.ts';
import { parseEvalFlags } from '../eval-options.ts';

/** `tandem plan`: the configurations and their shards as JSON on stdout, for a workflow matrix. */
export async function planCommand(
  caseFile: string,
  raw: { matrix: string; shards: string },
): Promise<number> {
  const flags = parseEvalFlags({ matrix: raw.matrix });
  const shards = Number(raw.shards);
  if (!Number.isInteger(shards) || shards < 1)
    throw new InputError('option --shards: expected a whole number ≥ 1');
  const input = await loadCase(caseFile);
  const plan = planMatrix(
    input.caseFile.targets.map((t) => t.repo),
    flags.matrix,
  );
  const out = {
    mode: plan.mode,
    configurations: plan.configurations,
    shards: Array.from({ length: shards }, (_, k) => ({
      shard: `${k + 1}/${shards}`,
      configurations: shardConfigurations(plan, { index: k + 1, count: shards }).map((c) => c.id),
    })),
  };
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  return 0;
}
