/**
 * The container side of prepare's network (prepare/egress-proxy.ts has the host side). A
 * prepare container has no network but its loopback; package managers take a proxy URL, not a
 * unix socket, so a tiny forwarder in the container listens on 127.0.0.1 and pipes each
 * connection to the host proxy's socket, mounted read-only. Taking the forwarder over gains PR
 * code nothing: the socket only leads to the proxy, which decides what is reachable.
 */
import { Writable } from 'node:stream';
import type Docker from 'dockerode';
import { InfraError } from '../../core/errors.ts';
import { OutputTail } from '../results/output-tail.ts';
import { startExec } from './docker-client.ts';

/** Where the host proxy's folder is mounted in a prepare container. */
export const EGRESS_DIR = '/tandem/egress';
export const EGRESS_SOCKET_NAME = 'proxy.sock';
const PORT = 3128;
const READY = 'tandem-egress-ready';

/** Inline script (never a file PR code could replace), run by the image's node. */
const FORWARDER = `const net=require('net');
const s=net.createServer((c)=>{const u=net.connect(${JSON.stringify(`${EGRESS_DIR}/${EGRESS_SOCKET_NAME}`)});
c.on('error',()=>u.destroy());u.on('error',()=>c.destroy());c.pipe(u);u.pipe(c);});
s.listen(${PORT},'127.0.0.1',()=>console.log(${JSON.stringify(READY)}));`;

/** Every variable the usual package managers and git read for a proxy; no host bypasses it. */
export function egressEnv(): string[] {
  const url = `http://127.0.0.1:${PORT}`;
  return [
    ...['HTTPS_PROXY', 'HTTP_PROXY', 'https_proxy', 'http_proxy'].map((n) => `${n}=${url}`),
    `npm_config_proxy=${url}`,
    `npm_config_https_proxy=${url}`,
    'NO_PROXY=',
    'no_proxy=',
  ];
}

/** Starts the forwarder in a started prepare container; resolves once it listens. */
export async function startForwarder(docker: Docker, container: Docker.Container): Promise<void> {
  const tail = new OutputTail(4096);
  let seen = '';
  let ready!: () => void;
  const listening = new Promise<void>((r) => {
    ready = r;
  });
  const stdout = new Writable({
    write: (chunk: Buffer, _enc, cb) => {
      seen = (seen + chunk.toString('latin1')).slice(-256);
      if (seen.includes(READY)) ready();
      cb();
    },
  });
  const run = await startExec(
    docker,
    container,
    { cmd: ['node', '-e', FORWARDER], user: '0:0' },
    tail,
    stdout,
  );
  const ended = run.ended.then(() => 'ended' as const);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => {
    timer = setTimeout(() => r('late'), 20_000);
  });
  const first = await Promise.race([listening.then(() => 'ready' as const), ended, late]);
  clearTimeout(timer);
  if (first !== 'ready') {
    run.detach();
    throw new InfraError(
      'engine',
      `prepare's egress forwarder did not start in the image (it needs \`node\` on PATH): ${tail.toString().slice(-300)}`,
    );
  }
}
