/**
 * The webhook handlers on GitHub's own example payloads (`@octokit/webhooks-examples`, typed by
 * `@octokit/webhooks`): which deliveries reach the service and with what, and which are ignored
 * — label-only edits, comments on issues or by bots, checks that are not Tandem's, payloads
 * missing what Tandem relies on. The service is a recorder; the store is a real SQLite file.
 */
import { describe, expect, it } from 'vitest';
import { DeliveryClaims } from '../../src/app/delivery-claims.ts';
import type { GitHubPort } from '../../src/app/port/github-port.ts';
import {
  onCheckRunRerun,
  onIssueComment,
  onPullRequest,
  type WebhookTarget,
} from '../../src/app/webhooks/pull-request-handlers.ts';
import type { PullInfo } from '../../src/core/pull-request.schema.ts';
import { examplePayload } from '../support/webhook-sender.ts';
import { useTempStore } from './app-fixtures.ts';

const temp = useTempStore('tandem-handlers-');

async function recorder() {
  const s = await temp.open();
  const calls = {
    pulls: [] as Array<{ pull: PullInfo; installationId: number }>,
    requests: [] as Array<{ seed: string; installationId: number }>,
    background: 0,
  };
  const target: WebhookTarget = {
    store: s,
    deliveries: new DeliveryClaims(s),
    onPull: async (pull, installationId) => {
      calls.pulls.push({ pull, installationId });
    },
    requestDelivered: async (_delivery, installationId, asks) => {
      for (const { seed } of asks) calls.requests.push({ seed, installationId });
      return true;
    },
    background: () => {
      calls.background += 1;
      return Promise.resolve();
    },
    invalidateConfig: () => {},
    whileMerging: <T>(_members: readonly string[], merge: () => Promise<T>) => merge(),
    linkedSet: async (seed) => [seed],
    log: { info: () => {}, warn: () => {}, error: () => {} },
    // No `/tandem merge` here: the merge queue is the App tests'.
    queue: undefined as never,
    configFor: async () => undefined,
  };
  return { target, calls, store: s };
}

// biome-ignore lint/suspicious/noExplicitAny: the tests edit GitHub's example payloads freely, then type them again.
type Json = any;

const pullPayload = (action: string, patch: Record<string, unknown> = {}) =>
  ({ ...examplePayload('pull_request', action), ...patch }) as unknown as Parameters<typeof onPullRequest>[1];
const commentPayload = (patch: (p: Json) => void) => {
  const p = examplePayload('issue_comment', 'created') as Json;
  p.installation = { id: 42, node_id: 'x' };
  patch(p);
  return p as unknown as Parameters<typeof onIssueComment>[1];
};
const checkPayload = (action: 'rerequested' | 'requested_action', patch: (p: Json) => void) => {
  const p = examplePayload('check_run', action) as Json;
  p.installation = { id: 42, node_id: 'x' };
  p.check_run.name = 'Tandem';
  patch(p);
  return p as unknown as Parameters<typeof onCheckRunRerun>[1];
};

describe('pull_request', () => {
  it('hands the PR, as validated, and its installation to the service', async () => {
    const { target, calls } = await recorder();
    const payload = pullPayload('opened');
    await onPullRequest(target, payload);
    expect(calls.pulls).toHaveLength(1);
    const { pull, installationId } = calls.pulls[0]!;
    expect(installationId).toBe(payload.installation!.id);
    expect(pull.ref.number).toBe(payload.pull_request.number);
    expect(pull.headSha).toBe(payload.pull_request.head.sha);
    expect(pull.state).toBe('open');
  });

  it('ignores an edit that changes neither title, body nor base, and a delivery without installation', async () => {
    const { target, calls } = await recorder();
    await onPullRequest(target, pullPayload('opened', { action: 'edited', changes: {} }));
    await onPullRequest(target, pullPayload('opened', { installation: undefined }));
    expect(calls.pulls).toHaveLength(0);
    await onPullRequest(target, pullPayload('opened', { action: 'edited', changes: { body: { from: '' } } }));
    expect(calls.pulls).toHaveLength(1);
  });

  it('reports a closed-and-merged PR as merged', async () => {
    const { target, calls } = await recorder();
    const payload = pullPayload('closed');
    (payload.pull_request as { merged: boolean }).merged = true;
    await onPullRequest(target, payload);
    expect(calls.pulls[0]!.pull.state).toBe('merged');
  });
});

describe('issue_comment', () => {
  it("records a writer's command on a PR before the answer and acknowledges it in the background; never an issue's, a bot's or one without installation", async () => {
    const { target, calls } = await recorder();
    const writer = { canWrite: async () => true, react: async () => {} } as unknown as GitHubPort;
    const command = (patch: (p: Json) => void) =>
      commentPayload((p) => {
        p.comment.body = '/tandem run';
        patch(p);
      });
    await onIssueComment(
      target,
      command(() => {}),
      writer,
    ); // the example is on an issue
    await onIssueComment(
      target,
      command((p) => {
        p.issue.pull_request = { url: 'x' };
        p.comment.user.type = 'Bot';
      }),
      writer,
    );
    await onIssueComment(
      target,
      command((p) => {
        p.issue.pull_request = { url: 'x' };
        delete p.installation;
      }),
      writer,
    );
    expect(calls.requests).toEqual([]);
    expect(calls.background).toBe(0);
    const onPr = command((p) => {
      p.issue.pull_request = { url: 'x' };
    });
    await onIssueComment(target, onPr, writer);
    const repo = onPr.repository;
    expect(calls.requests).toEqual([
      { seed: `${repo.owner.login}/${repo.name}#${onPr.issue.number}`.toLowerCase(), installationId: 42 },
    ]);
    expect(calls.background).toBe(1);
  });
});

describe('check_run re-run', () => {
  it('re-requests the set of a check run the App knows, by its stored PR', async () => {
    const { target, calls, store: s } = await recorder();
    const payload = checkPayload('rerequested', () => {});
    await s.checkRuns.save({
      pullKey: 'acme/api#3',
      headSha: 'a'.repeat(40),
      checkRunId: payload.check_run.id,
      evaluationId: 1,
    });
    await onCheckRunRerun(target, payload);
    expect(calls.requests).toEqual([{ seed: 'acme/api#3', installationId: 42 }]);
  });

  it('falls back to the check’s pull request, spelled as a key', async () => {
    const { target, calls } = await recorder();
    await onCheckRunRerun(
      target,
      checkPayload('rerequested', (p) => {
        p.repository.owner.login = 'Acme';
        p.repository.name = 'API';
        p.check_run.pull_requests = [{ number: 5 }];
      }),
    );
    expect(calls.requests).toEqual([{ seed: 'acme/api#5', installationId: 42 }]);
  });

  it('ignores other checks, other actions, and checks without a PR', async () => {
    const { target, calls } = await recorder();
    await onCheckRunRerun(
      target,
      checkPayload('rerequested', (p) => (p.check_run.name = 'CI')),
    );
    await onCheckRunRerun(
      target,
      checkPayload('requested_action', (p) => {
        p.requested_action = { identifier: 'something-else' };
        p.check_run.pull_requests = [{ number: 5 }];
      }),
    );
    await onCheckRunRerun(
      target,
      checkPayload('rerequested', (p) => (p.check_run.pull_requests = [])),
    );
    await onCheckRunRerun(
      target,
      checkPayload('rerequested', (p) => delete p.check_run.id),
    );
    expect(calls.requests).toEqual([]);
  });
});
