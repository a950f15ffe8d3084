/**
 * Builds GitHub webhook deliveries from `@octokit/webhooks-examples` payloads and sends them over HTTP,
 * signed as GitHub signs them.
 *
 * Public API:
 * - `createWebhookSender({ url, secret }) => WebhookSender`
 *   - `send(event, payload, opts?) => Promise<Delivery>`: POSTs JSON with `X-GitHub-Event`,
 *     `X-GitHub-Delivery` (a fresh uuid, or `opts.deliveryId` to simulate a redelivery),
 *     `X-Hub-Signature-256` (HMAC-SHA256 of the exact body with the secret; `opts.signature` overrides,
 *     `false` omits), `X-Hub-Signature` (sha1), `User-Agent: GitHub-Hookshot/…`.
 *     `Delivery` = `{ status, body, ms, deliveryId }` (`ms`: wall time of the request, for logs only).
 *   - helpers that build the payload and send it: `pullRequest(action, {pullRequest, repository,
 *     installationId, sender?, changes?, before?})` for opened/synchronize/edited/closed/reopened/…,
 *     `issueCommentCreated({pullRequest, repository, comment, installationId})`,
 *     `checkRunRerequested({checkRun, repository, installationId, sender?})`,
 *     `installation(action, {installationId, account, repositories?, accountType?})`,
 *     `workflowRunCompleted({repository, installationId, runId, headSha, headBranch?, conclusion?,
 *     event?, workflowName?, pullRequests?})`.
 *     `mergeGroup(action, {repository, installationId, headSha, headRef, baseSha, baseRef?, reason?})`
 *     for `merge_group.checks_requested` / `.destroyed`.
 *   The REST objects these take are what the GitHub stand-in returns (`standIn.pullRequest(...)`,
 *   `standIn.repository(...)`, `standIn.addComment(...)`, `standIn.checkRuns(...)`).
 * - `examplePayload(event, action)`: a deep copy of the first example for that event/action
 *   (preferring one that carries `installation`).
 * - `signPayload(secret, body) => 'sha256=…'`.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { WebhookDefinition } from '@octokit/webhooks-examples';

type Json = Record<string, unknown>;

const examples = createRequire(import.meta.url)('@octokit/webhooks-examples') as WebhookDefinition[];

export function examplePayload(event: string, action?: string): Json {
  const def = examples.find((d) => d.name === event);
  if (!def) throw new Error(`no webhook examples for ${event}`);
  const all = def.examples as unknown as Json[];
  const forAction = all.filter((e) => action === undefined || e.action === action);
  const pick = forAction.find((e) => e.installation) ?? forAction[0] ?? all[0];
  if (!pick) throw new Error(`no example for ${event}.${action}`);
  return structuredClone(pick);
}

export function signPayload(secret: string, body: string, algorithm: 'sha256' | 'sha1' = 'sha256'): string {
  return `${algorithm}=${createHmac(algorithm, secret).update(body).digest('hex')}`;
}

export interface Delivery {
  status: number;
  body: string;
  ms: number;
  deliveryId: string;
}

export interface SendOptions {
  deliveryId?: string;
  /** A signature to send instead of the right one; `false` sends none. */
  signature?: string | false;
  headers?: Record<string, string>;
}

/** The `login`-bearing part of a REST user, enough to stand as `sender`. */
type Account = { login: string; id?: number; type?: string } & Json;

const accountFrom = (login: string, type = 'User'): Account => ({
  login,
  id: 1,
  node_id: 'MDQ6VXNlcjE=',
  avatar_url: '',
  url: '',
  html_url: `https://github.com/${login}`,
  type,
  site_admin: false,
});

function common(repository: Json, installationId: number, sender?: Account): Json {
  const owner = repository.owner as Account;
  return {
    repository,
    // GitHub adds `organization` when the repository belongs to an organization.
    ...(owner.type === 'Organization' ? { organization: { ...owner, url: `${owner.url ?? ''}` } } : {}),
    sender: sender ?? owner,
    installation: {
      id: installationId,
      node_id: Buffer.from(`Installation${installationId}`).toString('base64'),
    },
  };
}

export function createWebhookSender(target: { url: string; secret: string }) {
  async function send(event: string, payload: Json, opts: SendOptions = {}): Promise<Delivery> {
    const deliveryId = opts.deliveryId ?? randomUUID();
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'GitHub-Hookshot/stand-in',
      'x-github-event': event,
      'x-github-delivery': deliveryId,
      'x-github-hook-id': '1',
      'x-hub-signature': signPayload(target.secret, body, 'sha1'),
      ...opts.headers,
    };
    const installation = payload.installation as { id?: number } | undefined;
    if (installation?.id !== undefined) {
      headers['x-github-hook-installation-target-type'] = 'integration';
      headers['x-github-hook-installation-target-id'] = String(installation.id);
    }
    if (opts.signature !== false)
      headers['x-hub-signature-256'] = opts.signature ?? signPayload(target.secret, body);
    const started = performance.now();
    const res = await fetch(target.url, { method: 'POST', headers, body });
    const text = await res.text();
    return { status: res.status, body: text, ms: performance.now() - started, deliveryId };
  }

  return {
    send,

    pullRequest(
      action: string,
      input: {
        pullRequest: Json;
        repository: Json;
        installationId: number;
        sender?: Account;
        /** For `edited`: e.g. `{ body: { from: 'old body' } }`. */
        changes?: Json;
        /** For `synchronize`: the previous head SHA. */
        before?: string;
      },
      opts?: SendOptions,
    ) {
      const base = examplePayload('pull_request', action === 'edited' ? 'opened' : action);
      const pr = input.pullRequest;
      const payload: Json = {
        ...base,
        action,
        number: pr.number,
        pull_request: { ...(base.pull_request as Json), ...pr },
        ...common(input.repository, input.installationId, input.sender ?? (pr.user as Account)),
      };
      if (action === 'edited') payload.changes = input.changes ?? {};
      if (action === 'synchronize') {
        payload.before = input.before ?? '0'.repeat(40);
        payload.after = (pr.head as Json).sha;
      }
      return send('pull_request', payload, opts);
    },

    issueCommentCreated(
      input: { pullRequest: Json; repository: Json; comment: Json; installationId: number },
      opts?: SendOptions,
    ) {
      const base = examplePayload('issue_comment', 'created');
      const pr = input.pullRequest;
      const issue: Json = {
        ...(base.issue as Json),
        url: pr.issue_url,
        html_url: pr.html_url,
        comments_url: pr.comments_url,
        id: pr.id,
        number: pr.number,
        title: pr.title,
        body: pr.body,
        user: pr.user,
        state: pr.state,
        draft: pr.draft,
        // The field that tells an issue comment on a PR from one on an issue.
        pull_request: {
          url: pr.url,
          html_url: pr.html_url,
          diff_url: pr.diff_url,
          patch_url: pr.patch_url,
          merged_at: pr.merged_at ?? null,
        },
      };
      const comment: Json = { ...(base.comment as Json), ...input.comment };
      const payload: Json = {
        ...base,
        action: 'created',
        issue,
        comment,
        ...common(input.repository, input.installationId, comment.user as Account),
      };
      return send('issue_comment', payload, opts);
    },

    checkRunRerequested(
      input: { checkRun: Json; repository: Json; installationId: number; sender?: Account },
      opts?: SendOptions,
    ) {
      const base = examplePayload('check_run', 'rerequested');
      const baseRun = base.check_run as Json;
      const run = input.checkRun;
      const payload: Json = {
        ...base,
        action: 'rerequested',
        check_run: {
          ...baseRun,
          ...run,
          check_suite: {
            ...(baseRun.check_suite as Json),
            ...((run.check_suite as Json | undefined) ?? {}),
            head_sha: run.head_sha,
            pull_requests: run.pull_requests ?? [],
          },
        },
        ...common(input.repository, input.installationId, input.sender ?? accountFrom('octocat')),
      };
      return send('check_run', payload, opts);
    },

    installation(
      action: 'created' | 'deleted' | 'suspend' | 'unsuspend' | 'new_permissions_accepted',
      input: {
        installationId: number;
        account: string;
        accountType?: 'Organization' | 'User';
        repositories?: { id: number; name: string; full_name: string; private: boolean }[];
        appId?: number;
      },
      opts?: SendOptions,
    ) {
      const base = examplePayload('installation', action);
      const account = accountFrom(input.account, input.accountType ?? 'Organization');
      const payload: Json = {
        ...base,
        action,
        installation: {
          ...(base.installation as Json),
          id: input.installationId,
          account,
          target_type: account.type,
          ...(input.appId !== undefined ? { app_id: input.appId } : {}),
        },
        repositories: (input.repositories ?? []).map((r) => ({ node_id: '', ...r })),
        sender: account,
      };
      return send('installation', payload, opts);
    },

    /**
     * `merge_group.checks_requested` or `.destroyed` (the example has no `destroyed` payload:
     * the same group with `reason` added, as GitHub sends it).
     */
    mergeGroup(
      action: 'checks_requested' | 'destroyed',
      input: {
        repository: Json;
        installationId: number;
        headSha: string;
        headRef: string;
        baseSha: string;
        baseRef?: string;
        reason?: 'merged' | 'invalidated' | 'dequeued';
      },
      opts?: SendOptions,
    ) {
      const base = examplePayload('merge_group', 'checks_requested');
      const group = base.merge_group as Json;
      const payload: Json = {
        ...base,
        action,
        merge_group: {
          ...group,
          head_sha: input.headSha,
          head_ref: input.headRef,
          base_sha: input.baseSha,
          base_ref: input.baseRef ?? 'refs/heads/main',
          head_commit: { ...(group.head_commit as Json), id: input.headSha },
        },
        ...(action === 'destroyed' ? { reason: input.reason ?? 'dequeued' } : {}),
        ...common(input.repository, input.installationId, accountFrom('octocat')),
      };
      return send('merge_group', payload, opts);
    },

    workflowRunCompleted(
      input: {
        repository: Json;
        installationId: number;
        runId: number;
        headSha: string;
        headBranch?: string;
        conclusion?: 'success' | 'failure' | 'cancelled' | 'neutral' | 'skipped' | 'timed_out';
        event?: string;
        workflowName?: string;
        pullRequests?: Json[];
      },
      opts?: SendOptions,
    ) {
      const base = examplePayload('workflow_run', 'completed');
      const repo = input.repository;
      const runUrl = `${String(repo.url)}/actions/runs/${input.runId}`;
      const payload: Json = {
        ...base,
        action: 'completed',
        workflow: { ...(base.workflow as Json), name: input.workflowName ?? 'tandem' },
        workflow_run: {
          ...(base.workflow_run as Json),
          id: input.runId,
          name: input.workflowName ?? 'tandem',
          head_sha: input.headSha,
          head_branch: input.headBranch ?? 'main',
          status: 'completed',
          conclusion: input.conclusion ?? 'success',
          event: input.event ?? 'workflow_dispatch',
          url: runUrl,
          artifacts_url: `${runUrl}/artifacts`,
          repository: repo,
          head_repository: repo,
          pull_requests: input.pullRequests ?? [],
        },
        ...common(repo, input.installationId),
      };
      return send('workflow_run', payload, opts);
    },
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;
