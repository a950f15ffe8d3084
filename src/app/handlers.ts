/**
 * Webhook handlers: verify-once (delivery ids), record, enqueue, return. Probot has already
 * checked the signature. Anything that calls GitHub runs in the service's background.
 */
import type { Probot } from 'probot';
import { pullKey } from '../core/pull-ref.ts';
import { pullInfoOf } from '../github/pull-requests.ts';
import { handleCommandComment } from './commands.ts';
import type { TandemService } from './service.ts';

const PR_EVENTS: Array<
  | 'pull_request.opened'
  | 'pull_request.synchronize'
  | 'pull_request.edited'
  | 'pull_request.reopened'
  | 'pull_request.closed'
> = [
  'pull_request.opened',
  'pull_request.synchronize',
  'pull_request.edited',
  'pull_request.reopened',
  'pull_request.closed',
];

export function registerHandlers(app: Probot, tandem: TandemService): void {
  app.on(PR_EVENTS, async (context) => {
    if (!tandem.claimDelivery(context.id, context.name)) return;
    const { payload } = context;
    const installationId = payload.installation?.id;
    if (installationId === undefined) return;
    // Only edits that can change links or the base matter; a label rename does not.
    if (payload.action === 'edited') {
      const changes = payload.changes as Record<string, unknown>;
      if (!changes.body && !changes.title && !changes.base) return;
    }
    await tandem.onPull(pullInfoOf(payload.pull_request), installationId);
  });

  app.on('issue_comment.created', async (context) => {
    if (!tandem.claimDelivery(context.id, context.name)) return;
    const { payload } = context;
    if (!payload.issue.pull_request || payload.comment.user?.type === 'Bot' || !payload.installation) return;
    const installationId = payload.installation.id;
    const repo = { owner: payload.repository.owner.login, repo: payload.repository.name };
    tandem.background(() =>
      handleCommandComment(tandem, context.octokit, installationId, repo, payload.issue.number, {
        id: payload.comment.id,
        body: payload.comment.body,
        author: payload.comment.user?.login ?? '',
      }),
    );
  });

  app.on(['check_run.rerequested', 'check_run.requested_action'], async (context) => {
    if (!tandem.claimDelivery(context.id, context.name)) return;
    const { payload } = context;
    if (payload.check_run.name !== 'Tandem' || !payload.installation) return;
    if (payload.action === 'requested_action' && payload.requested_action?.identifier !== 'rerun') return;
    const known = tandem.store.checkRuns.byId(payload.check_run.id);
    const pr = payload.check_run.pull_requests[0];
    const seed =
      known?.pullKey ??
      (pr
        ? pullKey({ owner: payload.repository.owner.login, repo: payload.repository.name, number: pr.number })
        : undefined);
    if (seed) tandem.request(seed, payload.installation.id);
  });

  app.on(['installation', 'installation_repositories'], async (context) => {
    if (!tandem.claimDelivery(context.id, context.name)) return;
    const id = context.payload.installation.id;
    tandem.invalidateConfig(id);
    context.log.info({ installation: id, action: context.payload.action }, 'installation changed');
  });
}
