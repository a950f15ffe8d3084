/**
 * What an evaluation truly says in the simulation: a set fails when its own changes are broken,
 * when a set whose changes are in the state is broken (its breakage is in the workspace), or when
 * it forms a failing pair with one of them. Pure.
 */
import type { TraceSet } from './trace.schema.ts';

export function trulyPasses(set: TraceSet, state: readonly TraceSet[]): boolean {
  if (set.outcome === 'fail') return false;
  for (const other of state) {
    if (other.outcome === 'fail') return false;
    if (set.failsWith?.includes(other.id) || other.failsWith?.includes(set.id)) return false;
  }
  return true;
}
