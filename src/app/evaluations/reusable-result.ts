/**
 * Whether a set's last published result may be republished instead of running the executor:
 * the same members on the same heads, the same fingerprint (org config and suite), and a report
 * that still parses and is a verdict (an infrastructure error is not one).
 */
import { pullKey } from '../../core/pull-ref.ts';
import { reportSchema } from '../../core/report.schema.ts';
import type { ResolvedSet } from '../linking/resolve-set.ts';
import type { Store } from '../store/store.ts';
import type { ReusedResult } from './evaluate-set.ts';

/** The set's last published result, when it was evaluated on exactly these members, heads and fingerprint. */
export async function reusable(
  store: Store,
  setKey: string,
  set: ResolvedSet,
  fingerprint: string,
): Promise<ReusedResult | undefined> {
  const last = await store.evaluations.lastPublished(setKey);
  if (!last?.report || last.evaluatedAt === null || last.fingerprint !== fingerprint) return undefined;
  const heads = (ms: ReadonlyArray<{ key: string; headSha: string }>) =>
    ms
      .map((m) => `${m.key}@${m.headSha}`)
      .sort()
      .join(' ');
  const now = set.members.map((m) => ({ key: pullKey(m.ref), headSha: m.headSha }));
  if (heads(last.members) !== heads(now)) return undefined;
  // A row an older Tandem wrote, or a report shape that changed since: run again rather than guess.
  const parsed = reportSchema.safeParse(JSON.parse(last.report));
  // An infrastructure error is no verdict on the code: a re-run is what its Re-run button asks for.
  if (!parsed.success || parsed.data.outcome === 'error') return undefined;
  return { report: parsed.data, fromEvaluation: last.id, evaluatedAt: last.evaluatedAt };
}
