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
 * Wraps Probot's middleware: webhook POSTs pass only when small enough and signed; everything
 * else goes to `next` untouched.
 */
export function guardWebhooks(
  secret: string,
  middleware: (req: IncomingMessage, res: ServerResponse, next: () => void) => unknown,
  limit = MAX_WEBHOOK_BYTES,
) {
  return async (req: IncomingMessage, res: ServerResponse, next: () => void): Promise<void> => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== WEBHOOK_PATH) {
      await middleware(req, res, next);
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
    Object.assign(req, { body: {}, rawBody: verdict.raw });
    await middleware(req, res, next);
  };
}
