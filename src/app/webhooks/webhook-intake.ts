/**
 * The door webhooks come in through, before Probot: a body larger than GitHub ever sends is
 * refused before it is read (its `Content-Length`) or as soon as the count passes the cap (a
 * chunked body), and the signature is checked on the raw bytes before anything parses them.
 * Only then does Probot's middleware get the request, with the bytes already read (`rawBody`,
 * which `@octokit/webhooks` takes instead of reading the stream again).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** GitHub caps webhook payloads at 25 MB and drops larger ones; nothing larger is genuine. */
export const MAX_WEBHOOK_BYTES = 25 * 1024 * 1024;

export const WEBHOOK_PATH = '/api/github/webhooks';

/**
 * True for every request target `@octokit/webhooks` would route to its handler: it drops the
 * target's trailing slashes, then compares the WHATWG pathname, which resolves `.`/`..` segments
 * (also `%2e`), turns a backslash into `/`, drops the query and fragment and takes an
 * absolute-form target's path. The same rule here means no spelling of the path reaches Probot
 * unguarded (and only the canonical one is ever passed on).
 */
export function routesToWebhook(target: string | undefined): boolean {
  const url = target ?? '';
  let end = url.length;
  // A loop, not a regular expression: linear on a target of a thousand slashes.
  while (end > 0 && url.charCodeAt(end - 1) === 0x2f) end--;
  const trimmed = url.slice(0, end) || '/';
  try {
    return new URL(trimmed, 'http://localhost').pathname === WEBHOOK_PATH;
  } catch {
    return false;
  }
}

type Verdict = { ok: true; raw: Buffer } | { ok: false; status: number; message: string };

/** True when `signature` (`sha256=<hex>`) is the HMAC-SHA256 of `raw` with `secret`. */
export function signatureMatches(secret: string, raw: Buffer, signature: string | undefined): boolean {
  if (!signature?.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', secret).update(raw).digest();
  const given = Buffer.from(signature.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Reads at most `limit` bytes of the body; past it, stops reading and says so. */
function readCapped(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.off('data', onData);
        // Stop receiving: the rest of an oversized body is never buffered.
        req.pause();
        resolve('too-large');
        return;
      }
      chunks.push(c);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

async function admit(req: IncomingMessage, secret: string, limit: number): Promise<Verdict> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit)
    return { ok: false, status: 413, message: `webhook bodies are at most ${limit} bytes` };
  const raw = await readCapped(req, limit);
  if (raw === 'too-large')
    return { ok: false, status: 413, message: `webhook bodies are at most ${limit} bytes` };
  const signature = req.headers['x-hub-signature-256'];
  if (typeof signature !== 'string' || !/^sha256=[0-9a-f]{64}$/i.test(signature))
    return { ok: false, status: 400, message: 'missing or malformed x-hub-signature-256' };
  if (!signatureMatches(secret, raw, signature))
    return { ok: false, status: 401, message: 'signature does not match the webhook secret' };
  return { ok: true, raw };
}

/**
 * Wraps Probot's middleware: webhook POSTs pass only when small enough and signed, and reach it
 * under the one canonical path; anything else aimed at the webhook path is a 404, and every other
 * request goes to `next` without Probot ever seeing it.
 */
export function guardWebhooks(
  secret: string,
  middleware: (req: IncomingMessage, res: ServerResponse, next: () => void) => unknown,
  limit = MAX_WEBHOOK_BYTES,
) {
  return async (req: IncomingMessage, res: ServerResponse, next: () => void): Promise<void> => {
    if (!routesToWebhook(req.url)) {
      next();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end();
      return;
    }
    const verdict = await admit(req, secret, limit);
    if (!verdict.ok) {
      if (verdict.status === 413) {
        // The rest of an oversized body is never read: flow control stalls the sender, and the
        // connection is dropped if it does not hang up itself.
        req.pause();
        req.socket.setTimeout(10_000, () => req.socket.destroy());
      }
      res
        .writeHead(verdict.status, { 'content-type': 'text/plain', connection: 'close' })
        .end(verdict.message);
      return;
    }
    // `@octokit/webhooks` reads `rawBody` when `body` is an object, instead of the spent stream.
    // The canonical path, so Probot routes exactly what was checked here.
    Object.assign(req, { body: {}, rawBody: verdict.raw, url: WEBHOOK_PATH });
    await middleware(req, res, next);
  };
}
