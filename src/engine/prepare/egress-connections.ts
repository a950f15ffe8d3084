/**
 * The egress proxy's client connections (egress-proxy.ts): admitted against the prepare's limits,
 * timed (headers, idle, lifetime), metered, and cut with a counted refusal. Every socket the proxy
 * holds is tracked here, so closing waits until each descriptor is back.
 */
import type net from 'node:net';
import type { EgressLimits, EgressRefusal } from '../../core/egress-limits.ts';
import type { EgressLedger } from './egress-ledger.ts';

export const reply = (status: string, text: string) =>
  `HTTP/1.1 ${status}\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\ntandem: ${text}\n`;

const REFUSED: Partial<Record<EgressRefusal, string>> = {
  header_bytes: reply('431 Request Header Fields Too Large', 'request headers over the egress limit'),
  header_seconds: reply('408 Request Timeout', 'request headers not sent in time'),
};
export const BUSY = (why: EgressRefusal) =>
  reply('503 Service Unavailable', `prepare's egress limit reached (${why})`);

export class EgressConnections {
  /** Every socket open: clients and upstreams. */
  private readonly sockets = new Set<net.Socket>();
  /** Kept client connections → their header timer (cleared once a request's headers are in). */
  private readonly kept = new Map<net.Socket, NodeJS.Timeout | undefined>();

  constructor(
    readonly ledger: EgressLedger,
    private readonly limits: EgressLimits,
  ) {}

  /** A connection arrives: refused with a 503 past the limits, else kept under its timers. */
  admit(client: net.Socket): void {
    this.sockets.add(client);
    client.on('error', () => client.destroy());
    const refused = this.ledger.admit();
    if (refused) {
      client.once('close', () => this.sockets.delete(client));
      this.answer(client, BUSY(refused));
      return;
    }
    const { limits } = this;
    const headerTimer = setTimeout(
      () => this.cut(client, 'header_seconds', REFUSED.header_seconds),
      limits.header_seconds * 1000,
    ).unref();
    const lifetime = setTimeout(
      () => this.cut(client, 'connection_seconds'),
      limits.connection_seconds * 1000,
    ).unref();
    this.kept.set(client, headerTimer);
    // Any byte either way restarts it (Node counts reads and writes on the socket).
    client.setTimeout(limits.idle_seconds * 1000, () => this.cut(client, 'idle_seconds'));
    client.on('data', this.meter(client));
    client.once('close', () => {
      clearTimeout(this.kept.get(client));
      clearTimeout(lifetime);
      this.kept.delete(client);
      this.sockets.delete(client);
      this.ledger.release();
    });
  }

  /** A request's headers are in on a kept connection; false when it was refused on arrival. */
  headersIn(client: net.Socket): boolean {
    if (!this.kept.has(client)) return false;
    clearTimeout(this.kept.get(client));
    this.kept.set(client, undefined);
    return true;
  }

  /** Answers and closes once the answer is out (a peer that never reads cannot keep it open). */
  answer(client: net.Socket, text: string): void {
    if (!client.writable) return void client.destroy();
    client.once('finish', () => client.destroy());
    client.end(text);
  }

  /** Cuts a kept connection for `why`, with `text` when nothing was answered on it yet. */
  cut(client: net.Socket, why: EgressRefusal, text?: string): void {
    if (client.destroyed) return;
    this.ledger.refuse(why);
    if (text) this.answer(client, text);
    else client.destroy();
  }

  /** Headers over the limit (Node's parser says so): a 431, counted. */
  headersTooLarge(client: net.Socket): void {
    this.cut(client, 'header_bytes', REFUSED.header_bytes);
  }

  /** Counts bytes through a kept connection; past the prepare's byte limit, cuts it. */
  meter(client: net.Socket): (chunk: Buffer) => void {
    return (chunk) => {
      if (!this.ledger.meter(chunk.length)) this.cut(client, 'bytes');
    };
  }

  /** One more upstream socket, against the reserve; closes the client when there is none. */
  upstreamSlot(client: net.Socket): boolean {
    if (this.ledger.hold()) return true;
    this.cut(client, 'descriptors', BUSY('descriptors'));
    return false;
  }

  /** An upstream socket for `client`: tracked, metered, closed with it; its slot given back. */
  watch(upstream: net.Socket, client: net.Socket): void {
    this.sockets.add(upstream);
    upstream.once('close', () => {
      this.sockets.delete(upstream);
      this.ledger.letGo();
    });
    upstream.on('data', this.meter(client));
    client.once('close', () => upstream.destroy());
  }

  /** Destroys every socket; resolves once each is closed (every descriptor back). */
  async closeAll(): Promise<void> {
    const gone = [...this.sockets].map((s) => new Promise<void>((done) => s.once('close', () => done())));
    for (const s of this.sockets) s.destroy();
    await Promise.all(gone);
  }
}
