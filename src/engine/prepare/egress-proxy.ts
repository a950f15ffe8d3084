/**
 * The host side of prepare's network: an HTTP proxy on a unix socket that a prepare container
 * (no network of its own) reaches through a bind mount. It opens `CONNECT host:port` tunnels,
 * and forwards plain `http://` requests, only to hosts the suite allows (egress-resolve.ts);
 * everything else gets 403. The engine needs no bridge or iptables for this: the socket is the
 * container's only way out.
 *
 * PR code drives it, so it holds only what the prepare's limits allow (core/egress-limits.ts,
 * issue 30): connections at once and in all, bytes, idle and total time per connection, header
 * size and time, and descriptors from the process-wide reserve (egress-reserve.ts). Past a
 * bound it refuses (503, 431, 408) or cuts that connection and counts it; `note()` names what
 * was hit, for the prepare's output.
 */
import { chmod } from 'node:fs/promises';
import http from 'node:http';
import type net from 'node:net';
import { connect } from 'node:net';
import {
  DEFAULT_EGRESS_LIMITS,
  type EgressLimits,
  type EgressRefusal,
  egressLimitNote,
} from '../../core/egress-limits.ts';
import { EgressLedger } from './egress-ledger.ts';
import { type DescriptorReserve, processReserve } from './egress-reserve.ts';
import { egressResolver } from './egress-resolve.ts';

export interface EgressProxy {
  /** The limits hit so far, as one line ('' when none was). */
  note(): string;
  /** The counts behind the note, for tests and reports. */
  readonly ledger: EgressLedger;
  close(): Promise<void>;
}

/** Connections past the limit that still get a 503 answer; beyond it Node drops them unanswered. */
const ANSWERED_OVERFLOW = 16;

const reply = (status: string, text: string) =>
  `HTTP/1.1 ${status}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\ntandem: ${text}\n`;

const REFUSED: Partial<Record<EgressRefusal, string>> = {
  header_bytes: reply('431 Request Header Fields Too Large', 'request headers over the egress limit'),
  header_seconds: reply('408 Request Timeout', 'request headers not sent in time'),
};
const BUSY = (why: EgressRefusal) =>
  reply('503 Service Unavailable', `prepare's egress limit reached (${why})`);
const FORBIDDEN = reply('403 Forbidden', 'host not allowed for prepare');

/** Starts the proxy listening on `socketPath` (a path in a folder only Tandem writes). */
export async function startEgressProxy(
  socketPath: string,
  allow: readonly string[],
  limits: EgressLimits = DEFAULT_EGRESS_LIMITS,
  reserve: DescriptorReserve = processReserve(),
): Promise<EgressProxy> {
  const ledger = new EgressLedger(limits, reserve);
  const resolve = egressResolver(allow);
  const sockets = new Set<net.Socket>();
  /** Kept client connections → their header timer (cleared once a request's headers are in). */
  const kept = new Map<net.Socket, NodeJS.Timeout | undefined>();

  /** Answers and closes once the answer is out (a peer that never reads cannot keep it open). */
  const answer = (client: net.Socket, text: string) => {
    if (!client.writable) return void client.destroy();
    client.once('finish', () => client.destroy());
    client.end(text);
  };
  /** Cuts a kept connection for `why`, with `text` when nothing was answered on it yet. */
  const cut = (client: net.Socket, why: EgressRefusal, text?: string) => {
    if (client.destroyed) return;
    ledger.refuse(why);
    if (text) answer(client, text);
    else client.destroy();
  };
  const headersIn = (client: net.Socket) => {
    clearTimeout(kept.get(client));
    kept.set(client, undefined);
  };
  /** Counts bytes through a kept connection; past the prepare's byte limit, cuts it. */
  const meter = (client: net.Socket) => (chunk: Buffer) => {
    if (!ledger.meter(chunk.length)) cut(client, 'bytes');
  };
  /** One more upstream socket, against the reserve; closes the client when there is none. */
  const upstreamSlot = (client: net.Socket): boolean => {
    if (ledger.hold()) return true;
    cut(client, 'descriptors', BUSY('descriptors'));
    return false;
  };
  const watch = (upstream: net.Socket, client: net.Socket) => {
    sockets.add(upstream);
    upstream.once('close', () => {
      sockets.delete(upstream);
      ledger.letGo();
    });
    upstream.on('data', meter(client));
    client.once('close', () => upstream.destroy());
  };

  const server = http.createServer({ maxHeaderSize: limits.header_bytes }, async (req, res) => {
    // A plain-HTTP proxy request: absolute URL in the request line. One per connection, so the
    // header timer covers every request line the connection carries.
    const client = req.socket;
    if (!kept.has(client)) return; // refused on arrival; already answered
    headersIn(client);
    res.shouldKeepAlive = false;
    let url: URL | undefined;
    try {
      url = new URL(req.url ?? '');
    } catch {}
    const port = Number(url?.port || 80);
    const address = url?.protocol === 'http:' ? await resolve(url.hostname, port) : undefined;
    const refuse = (status: number, text: string) =>
      res.writeHead(status, { 'content-type': 'text/plain' }).end(`tandem: ${text}\n`);
    if (!url) return refuse(400, 'expected an absolute http:// URL');
    if (!address) return refuse(403, 'host not allowed for prepare');
    if (client.destroyed) return;
    if (!ledger.hold()) {
      ledger.refuse('descriptors');
      return refuse(503, "prepare's egress limit reached (descriptors)");
    }
    req.on('data', meter(client));
    const upstream = http.request(
      {
        host: address,
        port,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers: req.headers,
        setHost: false,
        // Its own socket, closed with the request: no pool holding descriptors past the prepare.
        agent: false,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.once('socket', (s) => watch(s, client));
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });

  server.on('connection', (client: net.Socket) => {
    sockets.add(client);
    client.on('error', () => client.destroy());
    const refused = ledger.admit();
    if (refused) {
      client.once('close', () => sockets.delete(client));
      answer(client, BUSY(refused));
      return;
    }
    const headerTimer = setTimeout(
      () => cut(client, 'header_seconds', REFUSED.header_seconds),
      limits.header_seconds * 1000,
    ).unref();
    const lifetime = setTimeout(
      () => cut(client, 'connection_seconds'),
      limits.connection_seconds * 1000,
    ).unref();
    kept.set(client, headerTimer);
    // Any byte either way restarts it (Node counts reads and writes on the socket).
    client.setTimeout(limits.idle_seconds * 1000, () => cut(client, 'idle_seconds'));
    client.on('data', meter(client));
    client.once('close', () => {
      clearTimeout(kept.get(client));
      clearTimeout(lifetime);
      kept.delete(client);
      sockets.delete(client);
      ledger.release();
    });
  });
  // Past the limit and the answered overflow Node closes new connections unanswered.
  server.maxConnections = limits.connections + ANSWERED_OVERFLOW;
  server.on('drop', () => ledger.refuse('connections'));
  // A listener here stops Node destroying an idle socket before the one above counts it.
  server.on('timeout', () => {});
  server.on('clientError', (err: NodeJS.ErrnoException, client: net.Socket) => {
    if (err.code === 'HPE_HEADER_OVERFLOW') cut(client, 'header_bytes', REFUSED.header_bytes);
    else if (!client.destroyed) client.destroy();
  });

  server.on('connect', async (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    if (!kept.has(client)) return; // refused on arrival; already answered
    headersIn(client);
    // Bytes after the request wait for the pipe below (the meter alone would let them flow away).
    client.pause();
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
    const address = m ? await resolve(m[1]!, Number(m[2])) : undefined;
    if (client.destroyed) return;
    if (!address) {
      answer(client, FORBIDDEN);
      return;
    }
    if (!upstreamSlot(client)) return;
    const upstream = connect({ host: address, port: Number(m![2]) }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      // Already metered: it came in with the request's bytes.
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    watch(upstream, client);
    upstream.on('error', () => {
      if (upstream.connecting) answer(client, reply('502 Bad Gateway', 'upstream unreachable'));
      else client.destroy();
    });
  });

  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(socketPath, () => done());
  });
  // The prepare's commands run as root in the container, but say plainly who may connect.
  await chmod(socketPath, 0o666);
  return {
    ledger,
    note: () => egressLimitNote(limits, ledger.refusals),
    close: async () => {
      const closed = new Promise<void>((done) => server.close(() => done()));
      // Resolves once every socket is closed, so every descriptor is back when it returns.
      const gone = [...sockets].map((s) => new Promise<void>((done) => s.once('close', () => done())));
      for (const s of sockets) s.destroy();
      await Promise.all([closed, ...gone]);
    },
  };
}
