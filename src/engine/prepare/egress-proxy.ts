/**
 * The host side of prepare's network: an HTTP proxy on a unix socket that a prepare container
 * (no network of its own) reaches through a bind mount. It opens `CONNECT host:port` tunnels,
 * and forwards plain `http://` requests, only to hosts the suite allows
 * (core/prepare-egress.ts), after resolving the name here and refusing host loopback and
 * link-local addresses; everything else gets 403. The engine needs no bridge or iptables for
 * this: the socket is the container's only way out.
 */
import { lookup } from 'node:dns/promises';
import { chmod } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { egressAllowed, forbiddenAddress } from '../../core/prepare-egress.ts';

export interface EgressProxy {
  close(): Promise<void>;
}

/** Starts the proxy listening on `socketPath` (a path in a folder only Tandem writes). */
export async function startEgressProxy(socketPath: string, allow: readonly string[]): Promise<EgressProxy> {
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };
  /** The address to dial for an allowed host, or undefined (refused). */
  const resolve = async (host: string, port: number): Promise<string | undefined> => {
    if (!Number.isInteger(port) || port <= 0 || port > 65535 || !egressAllowed(allow, host, port))
      return undefined;
    try {
      const addresses = await lookup(host, { all: true });
      // One forbidden address refuses the name: no picking the harmless one by luck.
      if (addresses.length === 0 || addresses.some((a) => forbiddenAddress(a.address))) return undefined;
      return addresses[0]!.address;
    } catch {
      return undefined;
    }
  };
  const server = http.createServer(async (req, res) => {
    // A plain-HTTP proxy request: absolute URL in the request line.
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const port = Number(url.port || 80);
    const address = url.protocol === 'http:' ? await resolve(url.hostname, port) : undefined;
    if (!address) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('tandem: host not allowed for prepare\n');
      return;
    }
    const upstream = http.request(
      {
        host: address,
        port,
        method: req.method,
        path: `${url.pathname}${url.search}`,
        headers: req.headers,
        setHost: false,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', async (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    track(client);
    client.on('error', () => client.destroy());
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
    const host = m?.[1] ?? '';
    const port = Number(m?.[2]);
    const address = m ? await resolve(host, port) : undefined;
    if (!address) {
      client.end(
        'HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\ntandem: host not allowed for prepare\n',
      );
      return;
    }
    const upstream = net.connect({ host: address, port }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.on('error', () => {
      if (client.writable && upstream.connecting) client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      else client.destroy();
    });
    client.once('close', () => upstream.destroy());
  });
  server.on('connection', track);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  // The prepare's commands run as root in the container, but say plainly who may connect.
  await chmod(socketPath, 0o666);
  return {
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
