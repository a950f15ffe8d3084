/**
 * "Re-run all checks" arrives as `check_suite.rerequested` (GitHub's example payload): every PR
 * the suite lists is evaluated again; a payload without an installation is ignored.
 */
import { describe, expect, it } from 'vitest';
import { onCheckSuiteRerequested, type WebhookTarget } from '../../src/app/webhooks/pull-request-handlers.ts';
import { examplePayload } from '../support/webhook-sender.ts';

function recorder() {
  const requests: Array<{ seed: string; installationId: number }> = [];
  const target = {
    requestDelivered: async (_delivery: unknown, installationId: number, asks: Array<{ seed: string }>) => {
      for (const { seed } of asks) requests.push({ seed, installationId });
      return true;
    },
  } as unknown as WebhookTarget;
  return { target, requests };
}

type Json = Record<string, unknown>;

describe('check_suite.rerequested', () => {
  it("requests an evaluation of each PR the suite is for, in the suite's repository", async () => {
    const { target, requests } = recorder();
    const p = examplePayload('check_suite', 'rerequested') as Json;
    p.installation = { id: 7, node_id: 'x' };
    p.repository = { ...(p.repository as Json), name: 'API', owner: { login: 'Acme' } };
    (p.check_suite as Json).pull_requests = [{ number: 3 }, { number: 5 }];
    await onCheckSuiteRerequested(target, p);
    expect(requests).toEqual([
      { seed: 'acme/api#3', installationId: 7 },
      { seed: 'acme/api#5', installationId: 7 },
    ]);
  });

  it('ignores a payload without an installation', async () => {
    const { target, requests } = recorder();
    const p = examplePayload('check_suite', 'rerequested') as Json;
    delete p.installation;
    (p.check_suite as Json).pull_requests = [{ number: 3 }];
    await onCheckSuiteRerequested(target, p);
    expect(requests).toEqual([]);
  });
});
