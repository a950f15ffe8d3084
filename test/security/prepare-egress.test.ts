/**
 * Attack on prepare's network (issue 18, item 8), with real Docker, git and the real npm
 * registry: a PR's install script reads a service the evaluator's host serves on 127.0.0.1 only,
 * and a host the suite does not allow. On an engine without a bridge (dockerd --bridge=none, as
 * here) prepare used the host's network and reached both. Now it has no network but the egress
 * proxy, which reaches the suite's allowed registries and nothing else — and the registry still works.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import { hostDefaults } from '../../src/engine/host-defaults.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { SANDBOX_IMAGE, shellCase, shellGroup, tapScript } from '../helpers/example-cases.ts';
import { statuses } from './attack-kit.ts';

const docker = dockerSuite('sec-egress');
const SECRET = `LOOPBACK-ONLY-${Math.random().toString(36).slice(2)}`;
let server: Server;
let port = 0;
let hits = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    res.end(SECRET);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** The PR's install script: every way out it can think of, each result written to out/. */
function probe(): string {
  const url = `http://127.0.0.1:${port}/`;
  // A CONNECT through the proxy the container is given; prints the proxy's status code.
  const connect = (target: string) =>
    `node -e "const [h,p]=process.env.HTTPS_PROXY.slice(7).split(':');require('http').request({host:h,port:p,method:'CONNECT',path:'${target}'}).on('connect',(r)=>{console.log('status',r.statusCode);process.exit(0)}).on('error',(e)=>{console.log('error',e.code);process.exit(0)}).end()"`;
  return `mkdir -p out
node -e "fetch('${url}').then(r=>r.text()).then(t=>console.log(t),()=>console.log('refused'))" > out/direct.txt 2>&1
${connect(`127.0.0.1:${port}`)} > out/proxied.txt 2>&1
${connect('example.com:443')} > out/other-host.txt 2>&1
${connect('registry.npmjs.org:443')} > out/allowed.txt 2>&1
node -e "require('net').connect(${port},'127.0.0.1').on('connect',()=>{console.log('connected');process.exit(0)}).on('error',()=>{console.log('refused');process.exit(0)})" > out/tcp.txt 2>&1
npm view is-number@7.0.0 version --registry=https://registry.npmjs.org/ > out/registry.txt 2>&1 || true
`;
}

describe('attack: prepare reaching the host and other hosts', () => {
  let report: Report;

  beforeAll(async () => {
    const c = await shellCase({
      name: 'prepare-egress',
      repos: [{ name: 'app', base: { 'prep.sh': 'mkdir -p out\n' }, head: { 'prep.sh': probe() } }],
      suite: {
        name: 'prepare-egress-suite',
        image: SANDBOX_IMAGE,
        prepare: { 'acme/app': { run: 'sh prep.sh', outputs: ['out'] } },
        tests: [shellGroup('probe')],
      },
      hidden: {
        'hidden/probe.sh': tapScript('probe.tap', [
          { name: 'no host loopback directly', cmd: `! grep -q ${SECRET} app/out/direct.txt` },
          { name: 'no host loopback through the proxy', cmd: 'grep -qx "status 403" app/out/proxied.txt' },
          { name: 'no raw connection to host loopback', cmd: '! grep -q connected app/out/tcp.txt' },
          { name: 'no host the suite did not allow', cmd: 'grep -qx "status 403" app/out/other-host.txt' },
          { name: 'the proxy opens the allowed host', cmd: 'grep -qx "status 200" app/out/allowed.txt' },
          { name: 'the allowed registry answers', cmd: 'grep -qx 7.0.0 app/out/registry.txt' },
        ]),
      },
    });
    docker.track(c.root);
    // The host's CA bundle, as every face hands it in (a TLS-inspecting network needs it).
    const { caBundle } = hostDefaults(process.env);
    report = await docker.evaluate(c.input, { useResultCache: false, ...(caBundle ? { caBundle } : {}) });
  }, 600_000);

  it('reaches neither host loopback nor a host the suite did not allow', () => {
    expect(report.infraErrors).toEqual([]);
    expect(hits).toBe(0);
    expect(report.configurations.find((x) => x.id === 'full')?.outcome).toBe('pass');
    expect(statuses(report, 'full').sort()).toEqual([
      ['no host loopback directly', 'passed'],
      ['no host loopback through the proxy', 'passed'],
      ['no host the suite did not allow', 'passed'],
      ['no raw connection to host loopback', 'passed'],
      ['the allowed registry answers', 'passed'],
      ['the proxy opens the allowed host', 'passed'],
    ]);
  });
});
