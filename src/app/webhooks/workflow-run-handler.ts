/**
 * `workflow_run` webhooks from the evaluator repository: the hand-off learns its run (to link
 * the check runs) and its completion (to read the report). Runs of other workflows and of
 * evaluations the App is not waiting for are ignored. The answer waits for the run's record
 * (and its check runs' progress): the delivery is claimed with it.
 */
import type { Probot } from 'probot';
import { workflowRunInfo } from '../../github/actions.ts';
import type { ActionsExecutor } from '../executors/actions-executor.ts';
import type { TandemService } from '../service.ts';
import { claimOf } from './delivery-identity.ts';

export function registerWorkflowRunHandler(
  app: Probot,
  tandem: TandemService,
  actions: ActionsExecutor,
): void {
  app.on(
    ['workflow_run.requested', 'workflow_run.in_progress', 'workflow_run.completed'],
    async (context) => {
      const delivery = claimOf(context);
      if (await tandem.deliveries.seen(delivery)) return;
      const { payload } = context;
      const run = workflowRunInfo(payload.workflow_run);
      // The run is recorded on its hand-off in the transaction that claims the delivery: a
      // failure answers 500 with nothing claimed, for the delivery to come again. A run the App
      // is not waiting for records nothing and claims nothing.
      const ours = await actions.observeRun(payload.repository.full_name, run, (tx) =>
        tandem.deliveries.claimIn(tx, delivery),
      );
      if (ours) context.log.info({ run: run.id, status: run.status }, 'evaluator workflow run');
    },
  );
}
