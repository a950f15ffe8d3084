/**
 * The evaluations a non-PR delivery asks for (`/tandem run`, a check's or a suite's re-run),
 * stored in the transaction that claims it (`delivery-claims.ts`), as a PR delivery's are
 * (`evaluation-requests.ts`): each ask is its set's queued row, created or reused.
 */
import { setKey } from '../core/linked-set.ts';
import type { MatrixMode } from '../core/matrix-mode.ts';
import type { EvaluationRequests, StoredRequest } from './evaluation-requests.ts';
import type { Store } from './store/store.ts';

/** One evaluation asked for: the set around `seed`, with what the command said. */
export interface Ask {
  seed: string;
  matrix?: MatrixMode | undefined;
  fresh?: boolean | undefined;
}

/**
 * In `tx`: each ask stored (held for a merge, or its set's queued row), the rows locked in the
 * order of their set's name, as a PR delivery does, so two deliveries never wait on each other.
 */
export async function storeAsks(
  intake: EvaluationRequests,
  tx: Store,
  installationId: number,
  asks: readonly Ask[],
): Promise<StoredRequest[]> {
  const named: Array<{ ask: Ask; component: string[]; key: string }> = [];
  for (const ask of asks) {
    const component = await intake.componentOf(ask.seed, tx);
    named.push({ ask, component, key: setKey(component) });
  }
  named.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  const stored: StoredRequest[] = [];
  for (const { ask, component } of named)
    stored.push(
      await intake.store(tx, ask.seed, installationId, { matrix: ask.matrix, fresh: ask.fresh }, component),
    );
  return stored;
}
