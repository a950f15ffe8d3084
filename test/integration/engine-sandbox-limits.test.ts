/**
 * What the sandbox enforces, seen through the whole engine in one evaluation (base and full,
 * run in parallel): a hanging group times out and the next group still runs, a memory hog is
 * OOM-killed, a crash is reported with its exit code and output, the network is off,
 * configurations do not see each other's writes, and hidden files never enter a checkout.
 */
import { access, readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import {
  hangGroup,
  SANDBOX_IMAGE,
  shellCase,
  shellGroup,
  subdirs,
  tapScript,
} from '../helpers/example-cases.ts';

/** Every hidden file carries this in its name, so a test can look for any of them in the workspace. */
const MARK = 'zzhidden';
const docker = dockerSuite('engine-sandbox');
let report: Report;
let server: Server;
let hits = 0;

/** A non-loopback IPv4 address of this host: reachable from a container only if it has a network. */
function hostAddress(): string {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}

/** Passes only when every connection attempt FAILED: the group reporting `passed` means no network. */
function networkProbe(port: number): string {
  const targets = [
    ['host loopback', `http://127.0.0.1:${port}/`],
    ['host address', `http://${hostAddress()}:${port}/`],
    ['public hostname', 'http://example.com/'],
  ];
  return `const http = require('node:http');
const fs = require('node:fs');
const targets = ${JSON.stringify(targets)};
function attempt(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: 3000 }, (res) => { res.resume(); resolve('connected (status ' + res.statusCode + ')'); });
    req.on('timeout', () => { req.destroy(new Error('timeout')); });
    req.on('error', (e) => resolve(null));
  });
}
(async () => {
  const lines = ['TAP version 13', '1..' + targets.length];
  for (const [i, [name, url]] of targets.entries()) {
    const connected = await attempt(url);
    console.log(name, url, connected ?? 'could not connect');
    lines.push((connected ? 'not ok ' : 'ok ') + (i + 1) + ' - cannot reach ' + name);
  }
  fs.writeFileSync(process.env.TANDEM_RESULTS + '/network.tap', lines.join('\\n') + '\\n');
})();
`;
}

beforeAll(async () => {
  server = createServer((_req, res) => {
    hits++;
    res.end('reached');
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const port = (server.address() as AddressInfo).port;
  const c = await shellCase({
    name: 'sandbox-limits',
    repos: [{ name: 'app', base: { 'index.js': 'module.exports = 1;\n' }, head: { 'feature.txt': 'on\n' } }],
    suite: {
      name: 'limits-suite',
      image: SANDBOX_IMAGE,
      limits: { memory: '64m', cpus: 1, pids: 256, configuration_timeout: 300 },
      setup: [{ run: 'echo "$TANDEM_CONFIGURATION" >> app/marker.txt' }],
      tests: [
        shellGroup('isolation', {
          files: [`hidden/${MARK}-isolation.sh`],
          run: `sh $TANDEM_HIDDEN/${MARK}-isolation.sh`,
        }),
        shellGroup('hidden', {
          files: [`hidden/${MARK}-hidden.sh`],
          run: `sh $TANDEM_HIDDEN/${MARK}-hidden.sh`,
        }),
        {
          name: 'network',
          files: [`hidden/${MARK}-network.js`],
          run: `node $TANDEM_HIDDEN/${MARK}-network.js`,
          results: { format: 'tap', path: 'network.tap' },
          timeout: 60,
        },
        hangGroup(2),
        shellGroup('after-hang', {
          files: [`hidden/${MARK}-after.sh`],
          run: `sh $TANDEM_HIDDEN/${MARK}-after.sh`,
        }),
        {
          name: 'oom',
          run: 'node -e "const a = []; for (;;) a.push(Buffer.alloc(8 * 1024 * 1024, 1));"',
          results: { format: 'tap', path: 'oom.tap' },
          timeout: 60,
        },
        {
          name: 'crash',
          run: 'echo "about to crash: boom-4711"; exit 7',
          results: { format: 'tap', path: 'crash.tap' },
          timeout: 60,
        },
      ],
    },
    hidden: {
      [`hidden/${MARK}-isolation.sh`]: tapScript('isolation.tap', [
        { name: 'marker has only my line', cmd: 'test "$(cat app/marker.txt)" = "$TANDEM_CONFIGURATION"' },
      ]),
      [`hidden/${MARK}-hidden.sh`]: tapScript('hidden.tap', [
        { name: 'hidden files are at TANDEM_HIDDEN', cmd: `test -f "$TANDEM_HIDDEN/${MARK}-hidden.sh"` },
        {
          name: 'no hidden file in the workspace',
          cmd: `test -z "$(find "$TANDEM_WORKSPACE" -name '*${MARK}*')"`,
        },
      ]),
      [`hidden/${MARK}-network.js`]: networkProbe(port),
      [`hidden/${MARK}-after.sh`]: tapScript('after-hang.tap', [{ name: 'runs after a hang', cmd: 'true' }]),
    },
  });
  docker.track(c.root);
  report = await docker.evaluate(c.input);
}, 240_000);

afterAll(() => {
  server?.close();
});

const group = (configuration: string, name: string) =>
  report.configurations.find((x) => x.id === configuration)!.groups.find((g) => g.name === name)!;
const test = (configuration: string, idPart: string) =>
  report.configurations.find((x) => x.id === configuration)!.tests.find((t) => t.id.includes(idPart));

describe('sandbox limits through the engine', () => {
  it('grades groups killed at the limits as failures, never as infrastructure errors', () => {
    expect(report.infraErrors).toEqual([]);
    expect(report.outcome).toBe('unresolved');
    expect(report.configurations.map((x) => [x.id, x.outcome])).toEqual([
      ['base', 'fail'],
      ['full', 'fail'],
    ]);
  });

  it('times out a hanging group with the timeout in its reason; the next group still runs', () => {
    for (const id of ['base', 'full']) {
      expect(group(id, 'hang')).toMatchObject({
        status: 'timeout',
        reason: expect.stringMatching(/timed out after 2s/),
      });
      expect(group(id, 'after-hang').status).toBe('reported');
      expect(test(id, 'runs after a hang')).toMatchObject({ status: 'passed' });
    }
  });

  it('kills a group that exceeds the memory limit as oom', () => {
    expect(group('full', 'oom')).toMatchObject({ status: 'oom', reason: expect.stringContaining('memory') });
  });

  it('reports a group that crashes without results with its exit code and output tail', () => {
    const crash = group('full', 'crash');
    expect(crash).toMatchObject({ status: 'crashed', exitCode: 7 });
    expect(crash.reason).toContain('exit 7');
    expect(crash.reason).toContain('boom-4711');
    expect(crash.reason).toContain('crash.tap');
  });

  it('gives tests no network: the host server and a public hostname are unreachable', () => {
    for (const id of ['base', 'full']) {
      expect(group(id, 'network').status).toBe('reported');
      for (const what of ['host loopback', 'host address', 'public hostname']) {
        expect(test(id, `cannot reach ${what}`)).toMatchObject({ status: 'passed' });
      }
    }
    expect(hits).toBe(0);
  });

  it('keeps configurations apart: each sees only its own setup write', async () => {
    for (const id of ['base', 'full']) {
      expect(test(id, 'marker has only my line')).toMatchObject({ status: 'passed' });
    }
    // And the shared repository states were never written to.
    const states = path.join(docker.cacheDir, 'states');
    const checked: string[] = [];
    for (const repoDir of await subdirs(states)) {
      for (const state of await subdirs(path.join(states, repoDir))) {
        checked.push(state);
        await expect(access(path.join(states, repoDir, state, 'marker.txt'))).rejects.toThrow();
      }
    }
    expect(checked).toHaveLength(2);
  });

  it('never puts hidden files in a checkout', async () => {
    for (const id of ['base', 'full']) {
      expect(test(id, 'hidden files are at TANDEM_HIDDEN')).toMatchObject({ status: 'passed' });
      expect(test(id, 'no hidden file in the workspace')).toMatchObject({ status: 'passed' });
    }
    // Nor in the cached repository states the workspaces are copied from.
    const stateFiles = await readdir(path.join(docker.cacheDir, 'states'), { recursive: true });
    expect(stateFiles.length).toBeGreaterThan(0);
    expect(stateFiles.filter((f) => f.includes(MARK))).toEqual([]);
  });
});
