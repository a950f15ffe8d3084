/**
 * `merge_group` webhooks: `checks_requested` asks the gate for a `Tandem` check on the group's
 * head SHA, `destroyed` withdraws one still being evaluated. A payload without the fields Tandem
 * relies on (`core/merge-group.schema.ts`) is logged and ignored; the handler never throws.
 */

import type { Probot } from 'probot';
import { parseMergeGroupEvent } from '../../core/merge-group.schema.ts';
import type { MergeGroupGate } from '../merge-queue/merge-group-gate.ts';
import { deliveryIdentity } from './delivery-identity.ts';

export type MergeGroupTarget = Pick<MergeGroupGate, 'request' | 'destroy'>;

export async function onMergeGroup(
  gate: MergeGroupTarget,
  payload: unknown,
  log: { warn: (o: object, m: string) => void },
): Promise<void> {
  const event = parseMergeGroupEvent(payload);
  if (!event.ok) {
    log.warn({ err: event.error }, 'merge_group payload ignored');
    return;
  }
  if (event.action === 'checks_requested') await gate.request(event.group);
  else gate.destroy(event.group, event.reason);
}

export function registerMergeGroupHandler(
  app: Probot,
  deliveries: { claimDelivery(id: string, event: string, identity?: string): Promise<boolean> },
  gate: MergeGroupTarget,
): void {
  app.on(['merge_group.checks_requested', 'merge_group.destroyed'], async (context) => {
    if (
      !(await deliveries.claimDelivery(
        context.id,
        context.name,
        deliveryIdentity(context.name, context.payload),
      ))
    )
      return;
    await onMergeGroup(gate, context.payload, context.log);
  });
}
