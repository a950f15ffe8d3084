/**
 * `workflow_run` webhooks from the evaluator repository: the hand-off learns its run (to link
 * the check runs) and its completion (to read the report). Runs of other workflows and of
 * evaluations the App is not waiting for are ignored.
 */
import type { Probot } from 'probot';
import { workflowRunInfo } from '../../github/actions.ts';
import type { ActionsExecutor } from '../executors/actions-executor.ts';
import type { TandemService } from '../service.ts';
import { deliveryIdentity } from './delivery-identity.ts';

export function registerWorkflowRunHandler(
  app: Probot,
  tandem: TandemService,
  actions: ActionsExecutor,
): void {
  app.on(
    ['workflow_run.requested', 'workflow_run.in_progress', 'workflow_run.completed'],
    async (context) => {
      if (
        !(await tandem.claimDelivery(
          context.id,
          context.name,
          deliveryIdentity(context.name, context.payload),
        ))
      )
        return;
      const { payload } = context;
      const run = workflowRunInfo(payload.workflow_run);
      const repo = payload.repository.full_name;
      void tandem.background(async () => {
        const ours = await actions.observeRun(repo, run);
        if (ours) context.log.info({ run: run.id, status: run.status }, 'evaluator workflow run');
      });
    },
  );
}
