/**
 * An upstream the egress proxy may dial in tests: a TCP echo server on this machine's first
 * non-loopback IPv4 address (the proxy never dials loopback), and a raw proxy client that
 * speaks CONNECT over the proxy's unix socket and reports the status line.
 */
import net from 'node:net';
import { networkInterfaces } from 'node:os';

/** This machine's first non-loopback IPv4 address; tests of allowed egress need one. */
export function hostAddress(): string {
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  throw new Error('egress tests need a non-loopback IPv4 address on this machine (none found)');
}

export interface Upstream {
  address: string;
  port: number;
  /** `address:port`, as a suite's `network.allow` names it. */
  allow: string;
  /** Connections open now. */
  readonly open: Set<net.Socket>;
  /** Resolves once `n` connections are open. */
  opened(n: number): Promise<void>;
  /** Resolves once at most `n` connections are open. */
  atMost(n: number): Promise<void>;
  /** Resolves once no connection is open. */
  drained(): Promise<void>;
  close(): Promise<void>;
}

/** Starts an echo server on every interface; connections are held until their peer closes. */
export async function startUpstream(): Promise<Upstream> {
  const open = new Set<net.Socket>();
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const w of [...waiters]) w();
  };
  const server = net.createServer((s) => {
    open.add(s);
    s.on('error', () => s.destroy());
    s.once('close', () => {
      open.delete(s);
      changed();
    });
    s.pipe(s);
    changed();
  });
  const until = (ok: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!ok()) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
  const address = hostAddress();
  const port = (server.address() as net.AddressInfo).port;
  return {
    address,
    port,
    allow: `${address}:${port}`,
    open,
    opened: (n) => until(() => open.size >= n),
    atMost: (n) => until(() => open.size <= n),
    drained: () => until(() => open.size === 0),
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export interface ProxyAnswer {
  /** The status code of the proxy's answer, or 0 when it closed without one. */
  status: number;
  socket: net.Socket;
}

/**
 * Connects to the proxy at `socketPath`, writes `request` (default: CONNECT to `target`) and
 * resolves with the status once the answer's headers are in, or 0 when the proxy closed first.
 */
export function proxyRequest(socketPath: string, target: string, request?: string): Promise<ProxyAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    let seen = '';
    const done = (status: number) => {
      socket.removeAllListeners('data');
      resolve({ status, socket });
    };
    socket.on('error', () => socket.destroy());
    socket.on('data', (d: Buffer) => {
      seen += d.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})[\s\S]*?\r\n\r\n/.exec(seen);
      if (m) done(Number(m[1]));
    });
    socket.once('close', () => done(0));
    socket.write(request ?? `CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n\r\n`);
  });
}

/** Resolves when `socket` has closed. */
export function closed(socket: net.Socket): Promise<void> {
  return socket.closed ? Promise.resolve() : new Promise((r) => socket.once('close', () => r()));
}
