/**
 * Attack on the host through prepare's egress proxy (issue 30), with real Docker and the real
 * proxy: a PR's install script opens connections through the proxy and holds them, to use up
 * the evaluator's file descriptors so that its next Docker call fails and the PR gets
 * "infrastructure error" instead of "not resolved". Before: exit 3, `connect EMFILE
 * /var/run/docker.sock`. Now the proxy holds only what the prepare's limits allow, the PR's
 * prepare fails naming the limit, and the verdict is the PR's: not resolved. The same for many
 * slow connections that never finish their headers (slowloris).
 *
 * The upstream the proxy may dial is an echo server of this test on the machine's non-loopback
 * address, allowed by the suite (no public registry is flooded).
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import type { SuiteInput } from '../../src/core/suite.schema.ts';
import { dockerSuite, readReport } from '../helpers/docker-suite.ts';
import { startUpstream, type Upstream } from '../helpers/egress-upstream.ts';
import { REPO_ROOT, SANDBOX_IMAGE, shellCase, shellGroup, tapScript } from '../helpers/example-cases.ts';

const docker = dockerSuite('sec-egress-flood');
let upstream: Upstream;

beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(() => upstream.close());

/**
 * The PR's weapon: opens `n` connections through the container's proxy and holds every one the
 * proxy lets through. `connect` mode asks for a tunnel; `slow` mode sends a request line and
 * never ends its headers. Prints one line once every connection was answered or closed.
 */
const FLOOD = `const http = require('http'), net = require('net');
const [host, port] = process.env.HTTPS_PROXY.slice(7).split(':');
const [n, target, mode] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
let settled = 0, held = 0, refused = 0;
const keep = [];
const settle = (ok) => { ok ? held++ : refused++; if (++settled === n) console.log('held ' + held + ' refused ' + refused); };
for (let i = 0; i < n; i++) {
  if (mode === 'connect') {
    const req = http.request({ host, port, method: 'CONNECT', path: target, agent: false });
    req.on('connect', (res, s) => { s.on('error', () => {}); if (res.statusCode === 200) keep.push(s); else s.destroy(); settle(res.statusCode === 200); });
    req.on('error', () => settle(false));
    req.end();
  } else {
    const s = net.connect(Number(port), host, () => s.write('CONNECT ' + target + ' HTTP/1.1\\r\\nx-slow: 1\\r\\n'));
    s.on('error', () => {});
    s.once('close', () => settle(false));
  }
}
`;

/** Runs the flood in the background (holding on after the script exits) and fails the install if refused. */
const prepScript = (n: number, mode: 'connect' | 'slow') => `set -e
mkfifo /tmp/flood.fifo
node flood.js ${n} ${upstream.allow} ${mode} > /tmp/flood.fifo 2>/dev/null < /dev/null &
read summary < /tmp/flood.fifo
echo "flood: $summary"
[ "\${summary##* }" = 0 ]
`;

async function floodCase(name: string, n: number, mode: 'connect' | 'slow', limits?: Record<string, number>) {
  const suite: SuiteInput = {
    name: `${name}-suite`,
    image: SANDBOX_IMAGE,
    prepare: {
      'acme/app': {
        run: 'sh prep.sh',
        outputs: ['out'],
        timeout: 240,
        network: { allow: [upstream.allow], ...(limits ? { limits } : {}) },
      },
    },
    tests: [shellGroup('checks')],
  };
  const c = await shellCase({
    name,
    repos: [
      {
        name: 'app',
        base: { 'prep.sh': 'mkdir -p out\n', 'app.txt': 'broken\n' },
        // The PR fixes nothing; its install floods the proxy.
        head: { 'prep.sh': prepScript(n, mode), 'flood.js': FLOOD },
      },
    ],
    suite,
    hidden: {
      'hidden/checks.sh': tapScript('checks.tap', [{ name: 'fixed', cmd: 'grep -qx fixed app/app.txt' }]),
    },
  });
  docker.track(c.root);
  return c;
}

/** Every reason the report gives for the PR head's configurations. */
const reasons = (report: Report) =>
  report.configurations.flatMap((c) => c.groups.map((g) => g.reason ?? '')).join('\n');

describe('attack: exhausting the evaluator through the prepare egress proxy', () => {
  it('a flood of held tunnels fails the PR (exit 1, the limit named), not the evaluator (exit 3)', async () => {
    const c = await floodCase('egress-flood', 1500, 'connect');
    const out = path.join(c.root, 'report.json');
    const args = ['eval', c.caseFile, ...docker.cliFlags(), '--no-cache', '--json', out];
    // The CLI as a host with a common descriptor limit runs it: 1024.
    const cli = spawn(
      'bash',
      [
        '-c',
        'ulimit -n 1024; exec "$0" "$@"',
        process.execPath,
        path.join(REPO_ROOT, 'bin', 'tandem.js'),
        ...args,
      ],
      { cwd: REPO_ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    cli.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    cli.stdout.resume();
    const code = await new Promise<number | null>((r) => cli.on('close', (c) => r(c)));
    expect(stderr).not.toMatch(/EMFILE|INFRASTRUCTURE ERROR/);
    expect(code, stderr).toBe(1);
    const report = await readReport(out);
    expect(report.infraErrors).toEqual([]);
    expect(report.outcome).toBe('unresolved');
    expect(reasons(report)).toMatch(/prepare failed/);
    expect(reasons(report)).toMatch(/egress limit reached: 64 connections at once \(\d+ refused or closed\)/);
    // The proxy let through at most its limit; the upstream holds nothing once the run is over.
    await upstream.drained();
  }, 300_000);

  it('many slow headers are cut at the suite’s lowered header limit, and every descriptor comes back', async () => {
    const c = await floodCase('egress-slowloris', 300, 'slow', { header_seconds: 2 });
    const fds = () => readdirSync('/proc/self/fd').length;
    const baseline = fds();
    const report = await docker.evaluate(c.input, { useResultCache: false });
    expect(report.infraErrors).toEqual([]);
    expect(report.outcome).toBe('unresolved');
    expect(reasons(report)).toMatch(/prepare failed/);
    expect(reasons(report)).toMatch(
      /egress limit reached: .*2s to send request headers \(\d+ refused or closed\)/,
    );
    expect(fds()).toBeLessThanOrEqual(baseline + 2);
  }, 300_000);
});
