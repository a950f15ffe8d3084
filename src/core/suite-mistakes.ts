/**
 * Evaluator mistakes a run exposes, which are never a verdict on the code: listed test ids that
 * no configuration ever reports, not even the all-base one (misspelt ids, another runner's
 * naming), and an image that does not exist. Grading turns either into an `error` outcome that
 * says "invalid suite" (core/grading.ts); every face says it so. Pure.
 *
 * An id counts as never reported only when the all-base and the full configuration both ran,
 * neither reported it, no configuration did, and its group reported cleanly in at least one of
 * the two (a result file with no file that failed to load or package that failed to build): a
 * group that crashed or could not load its tests explains a missing id, and that may be the
 * code's doing.
 */
import type { PlannedConfiguration } from './matrix-plan.ts';
import type { ConfigurationRun, InfraErrorInfo } from './run.schema.ts';
import { groupOfTestId, isSyntheticFailure } from './test-id.ts';

export interface SuiteMistake {
  /** The suite fields at fault: `fail_to_pass`, `pass_to_pass`, `image`. */
  fields: string[];
  /** What is wrong, without test ids (they are shown only where `reveal` allows). */
  message: string;
  /** The listed ids never reported, sorted. */
  unmatched: string[];
}

export interface SuiteMistakeInput {
  configurations: readonly PlannedConfiguration[];
  /** Runs of the configuration with that id. */
  runsOf: (id: string) => ConfigurationRun[];
  /** The suite's own lists (absent: classified by the all-base run, nothing to misspell). */
  failToPass?: readonly string[] | undefined;
  passToPass?: readonly string[] | undefined;
  infraErrors: readonly InfraErrorInfo[];
}

export function suiteMistake(input: SuiteMistakeInput): SuiteMistake | undefined {
  const image = input.infraErrors.find((e) => e.kind === 'image-missing');
  if (image) return { fields: ['image'], message: image.message, unmatched: [] };

  const runsOfRole = (role: PlannedConfiguration['role']) => {
    const c = input.configurations.find((x) => x.role === role);
    return c ? input.runsOf(c.id) : [];
  };
  const base = runsOfRole('base');
  const full = runsOfRole('full');
  const ran = (runs: ConfigurationRun[]) => runs.length > 0 && runs.every((r) => !r.infraError);
  if (!ran(base) || !ran(full)) return undefined;

  const reported = new Set<string>();
  for (const c of input.configurations)
    for (const r of input.runsOf(c.id)) for (const g of r.groups) for (const t of g.tests) reported.add(t.id);
  const cleanGroups = new Set<string>();
  for (const r of [...base, ...full])
    for (const g of r.groups)
      if (g.status === 'reported' && !g.tests.some((t) => isSyntheticFailure(t.id))) cleanGroups.add(g.name);
  const never = (ids: readonly string[] | undefined) =>
    [...new Set(ids ?? [])].filter((id) => !reported.has(id) && cleanGroups.has(groupOfTestId(id))).sort();

  const f2p = never(input.failToPass);
  const p2p = never(input.passToPass);
  const unmatched = [...new Set([...f2p, ...p2p])].sort();
  if (unmatched.length === 0) return undefined;
  const fields = [...(f2p.length ? ['fail_to_pass'] : []), ...(p2p.length ? ['pass_to_pass'] : [])];
  const n = unmatched.length;
  return {
    fields,
    message: `${n} listed test ${n === 1 ? 'id' : 'ids'} in ${fields.join(' and ')} ${n === 1 ? 'was' : 'were'} never reported by any configuration, not even all-base: check them against the ids the reporter writes`,
    unmatched,
  };
}
