/**
 * Issue 25, item 5: the webhook size cap cannot be bypassed by spelling the path differently.
 * Every request target Probot's webhook middleware would route to its handler (a trailing slash,
 * a `.` or `%2e` segment, a `..` that climbs back, a query, a fragment, backslashes, an
 * absolute-form target) is refused with 413 on its declared 300 MiB before the body is read, and
 * signature-checked on the raw bytes; any other spelling is a plain 404 that never reaches Probot.
 * The body is streamed (one 1 MiB buffer written again and again), never allocated, so the
 * process's RSS growth is the App's buffering alone.
 */
import { type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { SECRET } from '../e2e/app-harness.ts';
import { SCHEMA_ONLY_CONFIG, type Scenario, useScenario } from '../helpers/app-scenario.ts';
import { signPayload } from '../support/webhook-sender.ts';

const scenario = useScenario();

const CONFIG = SCHEMA_ONLY_CONFIG;

const MIB = 1024 * 1024;

/** Spellings `@octokit/webhooks` routes to its handler. */
const WEBHOOK_SPELLINGS = [
  '/api/github/webhooks',
  '/api/github/webhooks/',
  '/api/github/webhooks//',
  '/api/github/./webhooks',
  '/api/github/%2e/webhooks',
  '/api/github/%2E%2E/github/webhooks',
  '/api/github/x/../webhooks',
  '/api/github/webhooks?x',
  '/api/github/webhooks?x/',
  '/api/github/webhooks#x',
  '/api\\github\\webhooks',
  'http://elsewhere.example/api/github/webhooks',
];

/** Spellings it does not route (percent-encoded letters stay encoded): 404, never Probot. */
const OTHER_SPELLINGS = ['/api/github/%77ebhooks', '/api/github/webhooksx', '/api/github/webhooks/x'];

interface Answer {
  status: number;
  /** Bytes the client had written when the answer came. */
  sent: number;
  /** RSS growth of this process (App and client) from the start of the request to the answer. */
  rssGrowth: number;
}

/** A JSON POST to the App at `path` (the request target sent as is), with a fresh delivery id. */
function webhookPost(
  w: Scenario,
  path: string,
  headers: OutgoingHttpHeaders,
  onAnswer: (res: IncomingMessage) => void,
): ClientRequest {
  const url = new URL(w.app.url);
  return request(
    {
      host: url.hostname,
      port: url.port,
      path,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-delivery': crypto.randomUUID(), ...headers },
    },
    onAnswer,
  );
}

/**
 * POSTs `total` bytes to `path` with a declared `Content-Length`, streaming one reused 1 MiB
 * buffer (each write once the socket drained), and stops writing as soon as the App answers.
 */
function stream(w: Scenario, path: string, total: number): Promise<Answer> {
  const chunk = Buffer.alloc(MIB, 0x20);
  const rssBefore = process.memoryUsage().rss;
  return new Promise((resolve, reject) => {
    let sent = 0;
    let done = false;
    const finish = (status: number) => {
      if (done) return;
      done = true;
      resolve({ status, sent, rssGrowth: process.memoryUsage().rss - rssBefore });
    };
    const req = webhookPost(
      w,
      path,
      {
        'content-length': total,
        'x-github-event': 'pull_request',
        'x-hub-signature-256': `sha256=${'0'.repeat(64)}`,
      },
      (res) => {
        finish(res.statusCode ?? 0);
        res.resume();
        req.destroy();
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => {
      // The App hanging up on a body it will not read, before its answer was parsed: status 0.
      if (e.code === 'EPIPE' || e.code === 'ECONNRESET') finish(0);
      else if (!done) reject(e);
    });
    const pump = () => {
      while (!done && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!done) req.end();
    };
    pump();
  });
}

/** A small body sent in one piece to `path`, signed with `secret`. */
function small(w: Scenario, path: string, secret: string): Promise<number> {
  const body = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
  return new Promise((resolve, reject) => {
    const req = webhookPost(
      w,
      path,
      { 'x-github-event': 'ping', 'x-hub-signature-256': signPayload(secret, body) },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('attack: the webhook path spelled another way', () => {
  it('caps a streamed 300 MiB body on every spelling Probot routes to its webhook handler', async () => {
    const w = await scenario().with({ config: CONFIG }).start();
    for (const path of WEBHOOK_SPELLINGS) {
      const answer = await stream(w, path, 300 * MIB);
      expect(answer.sent, `${path}: bytes written before the answer`).toBeLessThanOrEqual(32 * MIB);
      expect(answer.rssGrowth, `${path}: RSS growth`).toBeLessThanOrEqual(16 * MIB);
      // 413 (or the App hanging up first): either way refused, and only what the sockets buffer was sent.
      expect([413, 0], `${path}: status ${answer.status}`).toContain(answer.status);
    }
  });

  it('checks the signature on every spelling: forged is 401, genuine is 200', async () => {
    const w = await scenario().with({ config: CONFIG }).start();
    for (const path of WEBHOOK_SPELLINGS) {
      expect(await small(w, path, 'not-the-secret'), `${path} forged`).toBe(401);
      expect(await small(w, path, SECRET), `${path} genuine`).toBe(200);
    }
  });

  it('answers every other spelling with 404 without reading it into memory', async () => {
    const w = await scenario().with({ config: CONFIG }).start();
    for (const path of OTHER_SPELLINGS) {
      const answer = await stream(w, path, 300 * MIB);
      expect([404, 0], `${path}: status ${answer.status}`).toContain(answer.status);
      expect(answer.rssGrowth, `${path}: RSS growth`).toBeLessThanOrEqual(16 * MIB);
      expect(await small(w, path, SECRET), `${path} genuine`).toBe(404);
    }
  });
});
