/**
 * What reaches the App's webhook door (issue 17, findings 5 and 7), over real HTTP: a body larger
 * than GitHub ever sends is refused before it is read (declared by `Content-Length`, or counted
 * as it streams), and a captured signed delivery replayed under a fresh `X-GitHub-Delivery` does
 * nothing a second time. No engine run is needed: the suite covers none of the PRs used here.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { SECRET } from '../e2e/app-harness.ts';
import { SCHEMA_ONLY_CONFIG, type Scenario, useScenario } from '../helpers/app-scenario.ts';
import { evaluationCount } from '../support/store-probe.ts';
import { signPayload } from '../support/webhook-sender.ts';

const scenario = useScenario();

const CONFIG = SCHEMA_ONLY_CONFIG;

const MIB = 1024 * 1024;

/**
 * POSTs to the webhook path, writing `chunks` one after another (each once the socket drained),
 * and resolves with the status as soon as the App answers, with how many bytes were written by then.
 * An App that hangs up on the body before its answer was parsed (EPIPE, ECONNRESET: the client was
 * still writing) resolves `hungUp` instead: it stopped reading too, which is what these tests ask.
 */
function post(
  w: Scenario,
  headers: Record<string, string | number>,
  chunks: Iterable<Buffer>,
): Promise<{ status: number; sent: number; hungUp?: boolean }> {
  const url = new URL(`${w.app.url}/api/github/webhooks`);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers },
      (res) => {
        answered = true;
        resolve({ status: res.statusCode ?? 0, sent });
        // The rest is never sent: hang up.
        req.destroy();
      },
    );
    // The App closing the connection after its answer is expected.
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (answered) return;
      answered = true;
      if (e.code === 'EPIPE' || e.code === 'ECONNRESET') resolve({ status: 0, sent, hungUp: true });
      else reject(e);
    });
    const it = chunks[Symbol.iterator]();
    const pump = () => {
      while (!answered) {
        const next = it.next();
        if (next.done) {
          req.end();
          return;
        }
        sent += next.value.length;
        if (!req.write(next.value)) {
          req.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
}

function* repeat(chunk: Buffer, times: number): Generator<Buffer> {
  for (let i = 0; i < times; i++) yield chunk;
}

const headersFor = (extra: Record<string, string | number> = {}) => ({
  'content-type': 'application/json',
  'x-github-event': 'pull_request',
  'x-github-delivery': crypto.randomUUID(),
  ...extra,
});

describe('attack: oversized webhook bodies', () => {
  it('refuses a declared 300 MiB body before reading it', async () => {
    const w = await scenario().with({ config: CONFIG }).start();
    // Only 1 MiB is ever offered: an App that waits for the whole body never answers.
    const res = await post(
      w,
      headersFor({ 'content-length': 300 * MIB, 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` }),
      [Buffer.alloc(MIB, 0x20)],
    );
    expect(res.status).toBe(413);
    expect(res.sent).toBeLessThanOrEqual(MIB);
  });

  it('stops reading a chunked body once it passes 25 MB, before checking anything else', async () => {
    const w = await scenario().with({ config: CONFIG }).start();
    // 40 MiB offered, unsigned, in 1 MiB chunks with no Content-Length (chunked encoding).
    const res = await post(
      w,
      headersFor({ 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` }),
      repeat(Buffer.alloc(MIB, 0x20), 40),
    );
    // 413, or the connection cut while the client was still writing: either way not read to the end.
    expect(res.hungUp || res.status === 413, `status ${res.status}`).toBe(true);
    expect(res.sent).toBeLessThan(40 * MIB);
  });

  it('answers a forged signature with 401 and a genuine one with 200', async () => {
    const w = await scenario().with({ config: CONFIG }).start();
    const body = Buffer.from(JSON.stringify({ action: 'ping', zen: 'x' }));
    const forged = await post(
      w,
      headersFor({
        'x-github-event': 'ping',
        'x-hub-signature-256': signPayload('not-the-secret', body.toString()),
      }),
      [body],
    );
    expect(forged.status).toBe(401);
    const genuine = await post(
      w,
      headersFor({ 'x-github-event': 'ping', 'x-hub-signature-256': signPayload(SECRET, body.toString()) }),
      [body],
    );
    expect(genuine.status).toBe(200);
  });
});

describe('attack: a signed delivery replayed under a fresh delivery id', () => {
  const evaluations = (w: Scenario) => evaluationCount(w.app.service.store);
  const reactions = (w: Scenario, id: number) => w.standIn.reactions(id).length;

  it('a PR event replayed three times is handled once', async () => {
    const w = await scenario().with({ config: CONFIG }).start();
    await w.openPull('web', { 'index.js': 'module.exports = { page: 1 };\n' }, '');
    const first = await w.sendPull('opened', 'web', 1);
    expect(first.status).toBe(200);
    await w.settle();
    expect(await evaluations(w)).toBe(1);
    for (let i = 0; i < 3; i++) {
      // The same bytes, the same signature, a fresh delivery id each time.
      const again = await w.sendPull('opened', 'web', 1);
      expect(again.status).toBe(200);
      expect(again.deliveryId).not.toBe(first.deliveryId);
      await w.settle();
    }
    expect(await evaluations(w)).toBe(1);
    // A real new event (the body edited) is still handled.
    w.standIn.updatePullRequest('acme', 'web', 1, { body: 'Edited.' });
    await w.sendPull('edited', 'web', 1, { changes: { body: { from: '' } } });
    await w.settle();
    expect(await evaluations(w)).toBe(2);
  });

  it('a /tandem command replayed is acknowledged and acted on once', async () => {
    const w = await scenario().with({ config: CONFIG }).start();
    await w.openPull('web', { 'index.js': 'module.exports = { page: 1 };\n' }, '');
    w.standIn.setPermission('acme', 'web', 'alice', 'write');
    const comment = w.standIn.addComment('acme', 'web', 1, { body: '/tandem run', user: 'alice' });
    const send = () => w.sendComment('web', 1, comment);
    for (let i = 0; i < 3; i++) {
      expect((await send()).status).toBe(200);
      await w.settle();
    }
    // One 👍 (GitHub keeps one reaction per user anyway) and one evaluation asked for.
    expect(reactions(w, Number(comment.id))).toBe(1);
    expect(await evaluations(w)).toBe(1);
  });
});
