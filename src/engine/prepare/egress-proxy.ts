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
import { DEFAULT_EGRESS_LIMITS, type EgressLimits, egressLimitNote } from '../../core/egress-limits.ts';
import { EgressConnections, reply } from './egress-connections.ts';
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

const FORBIDDEN = reply('403 Forbidden', 'host not allowed for prepare');

type Resolve = ReturnType<typeof egressResolver>;

/**
 * A plain-HTTP proxy request (absolute URL in the request line), forwarded to an allowed host.
 * One per connection, so the header timer covers every request line the connection carries.
 */
function forwardHttp(conns: EgressConnections, resolve: Resolve) {
  return async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const client = req.socket;
    if (!conns.headersIn(client)) return; // refused on arrival; already answered
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
    if (!conns.ledger.hold()) {
      conns.ledger.refuse('descriptors');
      return refuse(503, "prepare's egress limit reached (descriptors)");
    }
    req.on('data', conns.meter(client));
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
    upstream.once('socket', (s) => conns.watch(s, client));
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
}

/** `CONNECT host:port`: a tunnel to an allowed host. */
function tunnel(conns: EgressConnections, resolve: Resolve) {
  return async (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    if (!conns.headersIn(client)) return; // refused on arrival; already answered
    // Bytes after the request wait for the pipe below (the meter alone would let them flow away).
    client.pause();
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
    const address = m ? await resolve(m[1]!, Number(m[2])) : undefined;
    if (client.destroyed) return;
    if (!address) return conns.answer(client, FORBIDDEN);
    if (!conns.upstreamSlot(client)) return;
    const upstream = connect({ host: address, port: Number(m![2]) }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      // Already metered: it came in with the request's bytes.
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    conns.watch(upstream, client);
    upstream.on('error', () => {
      if (upstream.connecting) conns.answer(client, reply('502 Bad Gateway', 'upstream unreachable'));
      else client.destroy();
    });
  };
}

/** Starts the proxy listening on `socketPath` (a path in a folder only Tandem writes). */
export async function startEgressProxy(
  socketPath: string,
  allow: readonly string[],
  limits: EgressLimits = DEFAULT_EGRESS_LIMITS,
  reserve: DescriptorReserve = processReserve(),
): Promise<EgressProxy> {
  const ledger = new EgressLedger(limits, reserve);
  const resolve = egressResolver(allow);
  const conns = new EgressConnections(ledger, limits);
  const server = http.createServer({ maxHeaderSize: limits.header_bytes }, forwardHttp(conns, resolve));
  server.on('connection', (client: net.Socket) => conns.admit(client));
  // Past the limit and the answered overflow Node closes new connections unanswered.
  server.maxConnections = limits.connections + ANSWERED_OVERFLOW;
  server.on('drop', () => ledger.refuse('connections'));
  // A listener here stops Node destroying an idle socket before the one above counts it.
  server.on('timeout', () => {});
  server.on('clientError', (err: NodeJS.ErrnoException, client: net.Socket) => {
    if (err.code === 'HPE_HEADER_OVERFLOW') conns.headersTooLarge(client);
    else if (!client.destroyed) client.destroy();
  });
  server.on('connect', tunnel(conns, resolve));

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
      await Promise.all([closed, conns.closeAll()]);
    },
  };
}
