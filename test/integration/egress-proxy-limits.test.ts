/**
 * The prepare egress proxy on its own (issue 30), over its real unix socket to a real upstream
 * on this machine: each limit refuses or cuts the connection past it and is counted, and every
 * descriptor it took is given back.
 */
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EGRESS_LIMITS, type EgressLimits } from '../../src/core/egress-limits.ts';
import { type EgressProxy, startEgressProxy } from '../../src/engine/prepare/egress-proxy.ts';
import { DescriptorReserve } from '../../src/engine/prepare/egress-reserve.ts';
import {
  closed,
  hostAddress,
  proxyRequest,
  startUpstream,
  type Upstream,
} from '../helpers/egress-upstream.ts';

let upstream: Upstream;
let dir: string;
let proxy: EgressProxy | undefined;
let reserve: DescriptorReserve;
const sock = () => path.join(dir, 'proxy.sock');
const openFds = () => readdirSync('/proc/self/fd').length;

async function start(limits: Partial<EgressLimits>, budget = 4096): Promise<EgressProxy> {
  reserve = new DescriptorReserve(budget);
  proxy = await startEgressProxy(sock(), [upstream.allow], { ...DEFAULT_EGRESS_LIMITS, ...limits }, reserve);
  return proxy;
}
/** Resolves once `ok()` holds, checked each time the proxy gives a descriptor back. */
const released = (p: EgressProxy, ok: () => boolean) =>
  new Promise<void>((resolve) => {
    const check = () => {
      if (!ok()) return;
      p.ledger.off('released', check);
      resolve();
    };
    p.ledger.on('released', check);
    check();
  });
const tunnel = () => proxyRequest(sock(), upstream.allow);

beforeAll(async () => {
  upstream = await startUpstream();
  dir = await mkdtemp(path.join(tmpdir(), 'tandem-egress-test-'));
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await upstream.drained();
  expect(reserve.inUse).toBe(0);
});
afterAll(async () => {
  await upstream.close();
  await rm(dir, { recursive: true, force: true });
});

describe('egress proxy limits', () => {
  it('holds at most `connections` at once, refuses the next with 503, and takes one again after a close', async () => {
    const p = await start({ connections: 3 });
    const held = await Promise.all([tunnel(), tunnel(), tunnel()]);
    expect(held.map((h) => h.status)).toEqual([200, 200, 200]);
    expect((await tunnel()).status).toBe(503);
    expect(p.ledger.refusals).toEqual({ connections: 1 });
    expect(p.note()).toBe(
      "tandem: prepare's egress limit reached: 3 connections at once (1 refused or closed)",
    );
    held[0]!.socket.destroy();
    await released(p, () => p.ledger.open === 2);
    expect((await tunnel()).status).toBe(200);
    for (const h of held) h.socket.destroy();
  });

  it('drops connections past the limit and its answered overflow without taking a descriptor', async () => {
    const p = await start({ connections: 1 });
    const answers = await Promise.all(Array.from({ length: 40 }, () => tunnel()));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200 && s !== 503 && s !== 0)).toEqual([]);
    expect(p.ledger.refusals.connections).toBe(39);
    expect(reserve.inUse).toBe(2);
    for (const a of answers) a.socket.destroy();
  });

  it('refuses past `total_connections` over the prepare', async () => {
    const p = await start({ total_connections: 2 });
    for (let i = 0; i < 2; i++) {
      const t = await tunnel();
      expect(t.status).toBe(200);
      t.socket.destroy();
      await released(p, () => p.ledger.open === 0);
    }
    expect((await tunnel()).status).toBe(503);
    expect(p.ledger.refusals).toEqual({ total_connections: 1 });
  });

  it('cuts the tunnel that passes `bytes` and refuses new ones', async () => {
    const p = await start({ bytes: 1000 });
    const t = await tunnel();
    expect(t.status).toBe(200);
    t.socket.resume();
    t.socket.write(Buffer.alloc(2000, 1));
    await closed(t.socket);
    expect(p.ledger.refusals.bytes).toBe(1);
    expect((await tunnel()).status).toBe(503);
    expect(p.ledger.refusals.bytes).toBe(2);
  });

  it('closes a tunnel idle for `idle_seconds`', async () => {
    const p = await start({ idle_seconds: 1 });
    const t = await tunnel();
    expect(t.status).toBe(200);
    await closed(t.socket);
    expect(p.ledger.refusals).toEqual({ idle_seconds: 1 });
  });

  it('closes a busy tunnel after `connection_seconds`', async () => {
    const p = await start({ connection_seconds: 1 });
    const t = await tunnel();
    expect(t.status).toBe(200);
    // Busy: every echo answered with the next byte, so the idle limit never applies.
    t.socket.on('data', () => t.socket.write('x'));
    t.socket.write('x');
    await closed(t.socket);
    expect(p.ledger.refusals).toEqual({ connection_seconds: 1 });
    expect(p.ledger.bytes).toBeGreaterThan(2);
  });

  it('answers 431 to headers over `header_bytes` and 408 to headers slower than `header_seconds`', async () => {
    const p = await start({ header_bytes: 1024, header_seconds: 1 });
    const big = `CONNECT ${upstream.allow} HTTP/1.1\r\nx-pad: ${'a'.repeat(2000)}\r\n\r\n`;
    expect((await proxyRequest(sock(), upstream.allow, big)).status).toBe(431);
    // Slowloris: the request line and no end of headers.
    expect(
      (await proxyRequest(sock(), upstream.allow, `CONNECT ${upstream.allow} HTTP/1.1\r\nx-a: b\r\n`)).status,
    ).toBe(408);
    expect(p.ledger.refusals).toEqual({ header_bytes: 1, header_seconds: 1 });
    expect(p.note()).toMatch(
      /1024 bytes of request headers \(1 refused or closed\); 1s to send request headers/,
    );
  });

  it('refuses with 503 when the process-wide descriptor reserve is used up', async () => {
    const p = await start({}, 3);
    const first = await tunnel(); // client + upstream: 2 of 3
    expect(first.status).toBe(200);
    expect((await tunnel()).status).toBe(503); // its client takes the 3rd; no upstream left
    const third = await tunnel(); // nothing left for a client
    expect(third.status).toBe(503);
    expect(p.ledger.refusals).toEqual({ descriptors: 2 });
    expect(p.note()).toMatch(/descriptor reserve for all egress proxies \(2 refused\)/);
    first.socket.destroy();
  });

  it('forwards a plain http:// request to an allowed host, metered, and gives its socket back', async () => {
    const web = http.createServer((_req, res) => res.end('hello'));
    await new Promise<void>((r) => web.listen(0, '0.0.0.0', r));
    const target = `${hostAddress()}:${(web.address() as AddressInfo).port}`;
    reserve = new DescriptorReserve(16);
    const p = await startEgressProxy(sock(), [target], DEFAULT_EGRESS_LIMITS, reserve);
    proxy = p;
    const get = (url: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({ socketPath: sock(), path: url, agent: false }, (res) => {
          let body = '';
          res.on('data', (d: Buffer) => {
            body += d.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    expect(await get(`http://${target}/`)).toEqual({ status: 200, body: 'hello' });
    expect((await get('http://example.com/')).status).toBe(403);
    expect(p.ledger.bytes).toBeGreaterThan(5);
    await released(p, () => reserve.inUse === 0);
    await new Promise<void>((r) => web.close(() => r()));
  });

  it('gives every descriptor back: the process holds what it held before', async () => {
    const before = openFds();
    const p = await start({ connections: 8 });
    const answers = await Promise.all(Array.from({ length: 30 }, () => tunnel()));
    expect(p.ledger.open).toBe(8);
    for (const a of answers) a.socket.destroy();
    await Promise.all(answers.map((a) => closed(a.socket)));
    await upstream.drained();
    await p.close();
    proxy = undefined;
    expect(reserve.inUse).toBe(0);
    expect(p.ledger.open).toBe(0);
    expect(openFds()).toBeLessThanOrEqual(before);
  });
});
