/**
 * `merge_group` webhooks: `checks_requested` asks the gate for a `Tandem` check on the group's
 * head SHA, `destroyed` withdraws one still being evaluated. A payload without the fields Tandem
 * relies on (`core/merge-group.schema.ts`) is logged and ignored; the handler never throws but
 * for the store: `checks_requested` claims its delivery in the transaction that stores the group
 * (`delivery-claims.ts`), so a failure there answers 500 and the delivery can come again.
 */

import type { Probot } from 'probot';
import { parseMergeGroupEvent } from '../../core/merge-group.schema.ts';
import type { ClaimTransaction, DeliveryClaims } from '../delivery-claims.ts';
import type { MergeGroupGate } from '../merge-queue/merge-group-gate.ts';
import { claimOf } from './delivery-identity.ts';

export type MergeGroupTarget = Pick<MergeGroupGate, 'request' | 'destroy'>;

/** How a delivery is claimed: inside the group's transaction, or alone before the work. */
export interface MergeGroupClaim {
  within(tx: ClaimTransaction): Promise<boolean>;
  first(): Promise<boolean>;
}

export async function onMergeGroup(
  gate: MergeGroupTarget,
  payload: unknown,
  log: { warn: (o: object, m: string) => void },
  claim?: MergeGroupClaim,
): Promise<void> {
  const event = parseMergeGroupEvent(payload);
  if (!event.ok) {
    log.warn({ err: event.error }, 'merge_group payload ignored');
    return;
  }
  if (event.action === 'checks_requested') await gate.request(event.group, claim?.within);
  // Withdrawing is an in-memory cancel, not a row: claimed first, at most once on purpose.
  else if (!claim || (await claim.first())) gate.destroy(event.group, event.reason);
}

export function registerMergeGroupHandler(
  app: Probot,
  deliveries: Pick<DeliveryClaims, 'seen' | 'claimIn' | 'claimFirst'>,
  gate: MergeGroupTarget,
): void {
  app.on(['merge_group.checks_requested', 'merge_group.destroyed'], async (context) => {
    const delivery = claimOf(context);
    if (await deliveries.seen(delivery)) return;
    await onMergeGroup(gate, context.payload, context.log, {
      within: (tx) => deliveries.claimIn(tx, delivery),
      first: () => deliveries.claimFirst(delivery),
    });
  });
}
