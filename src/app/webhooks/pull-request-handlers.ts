/**
 * Webhook handlers: verify-once (delivery ids), record, enqueue, return. Probot has already
 * checked the signature. A delivery that asks for an evaluation (a PR's, `/tandem run`, a check's
 * or a suite's re-run) is claimed in the transaction that stores its queued evaluation
 * (`delivery-claims.ts`): the answer waits for that commit, and a failure before it answers 500
 * with nothing claimed, so the delivery can come again. Anything else that calls GitHub runs in
 * the service's background, except what must be known before that transaction (an open PR's
 * consent question, `recordOpenPull`; a commenter's write access).
 *
 * Payload types are Probot's (its `Context`: what it delivers); the parts Tandem acts on
 * are validated with zod as well (`pullInfoOf`, and the schemas below), so a payload that does
 * not carry them is ignored with a log line instead of crashing a handler.
 */
import type { Context, Probot } from 'probot';
import { z } from 'zod';
import { pullKey } from '../../core/pull-ref.ts';
import { pullInfoOf } from '../../core/pull-request.schema.ts';
import { CHECK_NAME } from '../../github/check-runs.ts';
import type { DeliveryClaim } from '../evaluation-requests.ts';
import { recordOpenPull } from '../linking/record-pull.ts';
import type { GitHubPort, GitHubPorts } from '../port/github-port.ts';
import type { TandemService } from '../service.ts';
import { handleCommandComment } from './comment-commands.ts';
import { claimOf } from './delivery-identity.ts';

type Payload<E extends Context['name']> = Context<E>['payload'];

/** What the handlers need of the service (tests pass a recorder). */
export type WebhookTarget = Pick<
  TandemService,
  | 'deliveries'
  | 'onPull'
  | 'requestDelivered'
  | 'background'
  | 'invalidateConfig'
  | 'store'
  | 'linkedSet'
  | 'whileMerging'
  | 'log'
  | 'queue'
  | 'configFor'
>;

const PR_EVENTS = [
  'pull_request.opened',
  'pull_request.synchronize',
  'pull_request.edited',
  'pull_request.reopened',
  'pull_request.closed',
] as const;

/** The repository and installation every parsed payload carries. */
const installationFields = {
  repository: z.object({ name: z.string(), owner: z.object({ login: z.string() }) }),
  installation: z.object({ id: z.number().int() }),
};

/** The key of PR `number` in the payload's repository. */
function pullKeyIn(repository: { name: string; owner: { login: string } }, number: number) {
  return pullKey({ owner: repository.owner.login, repo: repository.name, number });
}

/** The comment fields a command needs. */
const commandCommentSchema = z.object({
  issue: z.object({ number: z.number().int(), pull_request: z.object({}).passthrough().optional() }),
  comment: z.object({
    id: z.number().int(),
    body: z.string(),
    user: z.object({ login: z.string(), type: z.string() }).nullable(),
  }),
  ...installationFields,
});

/** The check-run fields a re-run needs. */
const rerunSchema = z.object({
  action: z.enum(['rerequested', 'requested_action']),
  requested_action: z.object({ identifier: z.string() }).nullish(),
  check_run: z.object({
    id: z.number().int(),
    name: z.string(),
    pull_requests: z.array(z.object({ number: z.number().int() })),
  }),
  ...installationFields,
});

/**
 * A PR delivery (`delivery`: claimed in the service's transaction that records it). What must be
 * known before its set is named (the PR in the index, who may confirm its links) is asked first:
 * it is idempotent, so a failure there, or a kill, leaves the delivery to come again.
 */
export async function onPullRequest(
  tandem: WebhookTarget,
  payload: Payload<(typeof PR_EVENTS)[number]>,
  gh?: GitHubPort,
  delivery?: DeliveryClaim,
): Promise<void> {
  const installationId = payload.installation?.id;
  if (installationId === undefined) return;
  // Only edits that can change links or the base matter; a label rename does not.
  if (payload.action === 'edited') {
    const { changes } = payload;
    if (!changes.body && !changes.title && !changes.base) {
      // Nothing to record: claimed alone (at most once), so a redelivery is known as one.
      if (delivery) await tandem.deliveries.claimFirst(delivery);
      return;
    }
  }
  if (delivery && (await tandem.deliveries.seen(delivery))) return;
  const pull = pullInfoOf(payload.pull_request);
  if (gh && pull.state === 'open')
    await recordOpenPull(gh, tandem.store, pull, installationId, payload.action === 'opened', tandem.log);
  await tandem.onPull(pull, installationId, delivery);
}

/**
 * A command comment on a PR: what it records (links, the evaluations it asks for) commits with
 * the delivery's claim before the answer (`comment-commands.ts`); its reactions and a merge or
 * dequeue run in the background after it.
 */
export async function onIssueComment(
  tandem: WebhookTarget,
  payload: Payload<'issue_comment.created'>,
  gh: GitHubPort,
  delivery?: DeliveryClaim,
): Promise<void> {
  const parsed = commandCommentSchema.safeParse(payload);
  if (!parsed.success) return;
  const p = parsed.data;
  if (!p.issue.pull_request || p.comment.user?.type === 'Bot') return;
  const repo = { owner: p.repository.owner.login, repo: p.repository.name };
  const comment = { id: p.comment.id, body: p.comment.body, author: p.comment.user?.login ?? '' };
  await handleCommandComment(tandem, gh, p.installation.id, repo, p.issue.number, comment, {
    ...(delivery ? { delivery } : {}),
    later: (fn) => void tandem.background(fn),
  });
}

/** "Re-run" on a `Tandem` check (GitHub's button, or the one the infrastructure-error check offers). */
export async function onCheckRunRerun(
  tandem: WebhookTarget,
  payload: Payload<'check_run.rerequested' | 'check_run.requested_action'>,
  delivery?: DeliveryClaim,
): Promise<void> {
  const parsed = rerunSchema.safeParse(payload);
  if (!parsed.success) return;
  const p = parsed.data;
  if (p.check_run.name !== CHECK_NAME) return;
  if (p.action === 'requested_action' && p.requested_action?.identifier !== 'rerun') return;
  const known = await tandem.store.checkRuns.byId(p.check_run.id);
  const pr = p.check_run.pull_requests[0];
  const seed = known?.pullKey ?? (pr ? pullKeyIn(p.repository, pr.number) : undefined);
  if (seed) await tandem.requestDelivered(delivery, p.installation.id, [{ seed }]);
}

/** The check-suite fields a "Re-run all checks" needs: the PRs whose head the suite is on. */
const suiteRerunSchema = z.object({
  check_suite: z.object({ pull_requests: z.array(z.object({ number: z.number().int() })) }),
  ...installationFields,
});

/**
 * "Re-run all checks" on a PR: GitHub sends `check_suite.rerequested` (only to the App whose
 * suite it is), not a `check_run` event, so the `Tandem` check would otherwise never re-run.
 * A PR from a fork is not listed in `pull_requests`: its re-run goes through the check's own
 * Re-run or `/tandem run`.
 */
export async function onCheckSuiteRerequested(
  tandem: WebhookTarget,
  payload: unknown,
  delivery?: DeliveryClaim,
): Promise<void> {
  const parsed = suiteRerunSchema.safeParse(payload);
  if (!parsed.success) return;
  const p = parsed.data;
  const asks = p.check_suite.pull_requests.map((pr) => ({ seed: pullKeyIn(p.repository, pr.number) }));
  if (asks.length > 0) await tandem.requestDelivered(delivery, p.installation.id, asks);
}

/**
 * `github` is the port of each installation (the process's one client per installation, not the
 * delivery's own: the same client and rate-limit gates whichever webhook asks).
 */
export function registerHandlers(app: Probot, tandem: WebhookTarget, github: GitHubPorts): void {
  app.on([...PR_EVENTS], async (context) => {
    const id = context.payload.installation?.id;
    const gh = id === undefined ? undefined : await github(id);
    await onPullRequest(tandem, context.payload, gh, claimOf(context));
  });

  app.on('issue_comment.created', async (context) => {
    const id = context.payload.installation?.id;
    if (id !== undefined) await onIssueComment(tandem, context.payload, await github(id), claimOf(context));
  });

  app.on(['check_run.rerequested', 'check_run.requested_action'], async (context) => {
    await onCheckRunRerun(tandem, context.payload, claimOf(context));
  });

  app.on('check_suite.rerequested', async (context) => {
    await onCheckSuiteRerequested(tandem, context.payload, claimOf(context));
  });

  app.on(['installation', 'installation_repositories'], async (context) => {
    // Only a cache is dropped (it expires anyway): claimed first, at most once.
    if (!(await tandem.deliveries.claimFirst(claimOf(context)))) return;
    const id = context.payload.installation.id;
    tandem.invalidateConfig(id);
    context.log.info({ installation: id, action: context.payload.action }, 'installation changed');
  });
}
