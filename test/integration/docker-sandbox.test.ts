import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InfraError } from '../../src/core/errors.ts';
import { DockerSandbox } from '../../src/engine/docker/docker-sandbox.ts';
import { expectConfigurationTimedOut, MiB, sandboxSpecs, step } from '../helpers/sandbox-spec.ts';

const IMAGE = 'tandem/sandbox:node20';
const runTag = randomBytes(4).toString('hex');
const sandbox = new DockerSandbox();
const { tempDir, makeSpec, runLayout, runSetupFailure } = sandboxSpecs({
  prefix: 'tandem-docker-sb-',
  image: IMAGE,
  configurationId: () => `cfg-${runTag}-${randomBytes(3).toString('hex')}`,
});

function containersLabelled(label: string): string {
  return execFileSync('docker', ['ps', '-aq', '--filter', `label=${label}`], { encoding: 'utf8' }).trim();
}

beforeAll(() => {
  execFileSync('bash', ['scripts/start-docker.sh'], { stdio: 'inherit' });
  execFileSync('bash', ['scripts/build-sandbox-image.sh'], { stdio: 'inherit' });
}, 300_000);

afterAll(() => sandbox.dispose());

describe('DockerSandbox', () => {
  it('reports its kind and a stable image id', async () => {
    expect(sandbox.kind).toBe('docker');
    const id = await sandbox.imageId(IMAGE);
    expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await sandbox.imageId(IMAGE)).toBe(id);
  });

  it('fails with image-missing for an image that is not there', async () => {
    const image = `tandem/missing-${runTag}:nope`;
    await expect(sandbox.imageId(image)).rejects.toMatchObject({ kind: 'image-missing' });
    await expect(sandbox.imageId(image)).rejects.toThrow(/not available locally; build it with/);
    await expect(
      sandbox.runConfiguration(makeSpec({ image, tests: [step('t', 'true')] })),
    ).rejects.toMatchObject({
      kind: 'image-missing',
    });
  });

  it('runs steps with the workspace layout, env, mounts and results folder', async () => {
    const { spec, out, deps, groupHidden } = await runLayout(sandbox);
    const [env, deps2, hidden] = out.tests;
    expect(out.setup[0]?.outputTail).toContain('setup sees /tandem/hidden\n');
    expect(env?.exitCode).toBe(0);
    expect(env?.outputTail).toContain('/tandem/workspace\n');
    // Each group's own results folder, made for its step (group-results.ts), and its own HOME
    // (step-scratch.ts).
    expect(env?.outputTail).toMatch(
      new RegExp(
        `W=/tandem/workspace H=/tandem/hidden R=/tandem/results/group-0-[0-9a-f]{24} C=${spec.configurationId} HOME=/tandem/scratch/group-0-[0-9a-f]{24}/home`,
      ),
    );
    expect(env?.outputTail).toContain('module.exports = 1;\nbuilt');
    expect(deps2?.outputTail).toContain('dep');
    expect(deps2?.exitCode).not.toBe(0);
    expect(deps2?.outputTail).toMatch(/Read-only file system/);
    // The engine may deliver stderr ahead of earlier stdout: check the pieces, not their order.
    // Only the running group's files, at $TANDEM_HIDDEN itself (hidden-stage.ts).
    expect(hidden?.outputTail).toContain('/tandem/hidden\n');
    expect(hidden?.outputTail).toContain('hidden test');
    expect(hidden?.exitCode).not.toBe(0);
    expect(hidden?.outputTail).toMatch(/Read-only file system/);
    // The mounts were not written.
    expect(() => readFileSync(path.join(deps, 'new.js'))).toThrow();
    expect(() => readFileSync(path.join(groupHidden, 'new.txt'))).toThrow();
    await sandbox.removalsSettled();
    expect(containersLabelled(`tandem.configuration=${spec.configurationId}`)).toBe('');
  });

  it('stops at the first failing setup step', () => runSetupFailure(sandbox));

  it('gives each group its own HOME and TMPDIR, a root it cannot write, and isolated groups what setup left', async () => {
    const spec = makeSpec();
    const deps = tempDir();
    chmodSync(deps, 0o755);
    writeFileSync(path.join(deps, 'dep.js'), 'dep');
    // The mount point a prepare leaves for a wired producer.
    mkdirSync(path.join(deps, '@acme', 'schema'), { recursive: true, mode: 0o755 });
    chmodSync(path.join(deps, '@acme'), 0o755);
    mkdirSync(path.join(spec.workspaceDir, 'schema'));
    writeFileSync(path.join(spec.workspaceDir, 'schema', 'v.txt'), 'schema-v1\n');
    spec.readonlyMounts = [{ hostPath: deps, workspacePath: 'api/node_modules' }];
    spec.links = [{ source: 'schema', target: 'api/node_modules/@acme/schema' }];
    spec.setup = [
      step('setup:1', 'echo built > api/built.txt; echo s > /tmp/setup-tmp; echo h > "$HOME/setup-home"'),
    ];
    const show =
      'echo "HOME=$HOME TMPDIR=$TMPDIR"; ls -A "$HOME" "$TMPDIR"; cat api/index.js api/built.txt /tmp/setup-tmp api/node_modules/dep.js schema/v.txt api/node_modules/@acme/schema/v.txt; ls -A api schema /tmp';
    spec.tests = [
      step(
        'dirty',
        `${show}; echo x > api/new.txt; echo changed > api/index.js; echo bad > schema/v.txt; rm api/built.txt; ln -s / schema/root; echo t > /tmp/dirty; echo g > "$HOME/g"; echo g > "$TMPDIR/g"; touch /tandem/workspace/planted 2>/dev/null && echo root-writable; true`,
      ),
      step('shared', 'cat api/new.txt api/index.js'),
      { ...step('iso', `${show}; echo y > api/from-iso.txt`), isolate: true },
      { ...step('iso-again', show), isolate: true },
    ];
    const out = await sandbox.runConfiguration(spec);
    const [dirty, shared, iso, again] = out.tests;
    expect(out.tests.map((t) => t.exitCode)).toEqual([0, 0, 0, 0]);
    expect(dirty?.outputTail).not.toContain('root-writable');
    // Not isolated: sees what the group before it wrote.
    expect(shared?.outputTail).toBe('x\nchanged\n');
    const homes = [dirty, iso, again].map((t) =>
      /HOME=(\S+) TMPDIR=(\S+)/.exec(t?.outputTail ?? '')?.slice(1),
    );
    expect(new Set(homes.flat()).size).toBe(6);
    for (const t of [iso, again]) {
      const text = t?.outputTail ?? '';
      // What setup left, the prepared and the wired mounts; nothing the dirty group wrote.
      expect(text).toContain('module.exports = 1;\nbuilt\ns\ndepschema-v1\nschema-v1\n');
      expect(text).not.toMatch(/new\.txt|from-iso|changed|bad|dirty|root\b|\bg\b|setup-home/);
    }
    expect(() => readFileSync(path.join(spec.workspaceDir, 'planted'))).toThrow();
  });

  it('kills a hanging step at its timeout and runs the next step in the same container', async () => {
    const spec = makeSpec({
      tests: [
        step('mark', 'hostname > /tmp/first-host; echo marked'),
        step('hang', 'sleep 300 & echo started; sleep 301', 2),
        step('after', 'cat /tmp/first-host; hostname; ps -o args | grep -c "sleep 30[01]" || true'),
      ],
    });
    const out = await sandbox.runConfiguration(spec);
    expect(out.timedOut).toBe(false);
    const [, hang, after] = out.tests;
    expect(hang).toMatchObject({ timedOut: true, exitCode: null, notRun: false });
    expect(hang?.outputTail).toContain('started');
    expect(after?.exitCode).toBe(0);
    const [firstHost, hostNow, sleepers] = (after?.outputTail ?? '').trim().split('\n');
    expect(firstHost).toBe(hostNow);
    expect(sleepers).toBe('0');
  });

  it('kills what a test step leaves running before the next group; setup services stay', async () => {
    const count = (pattern: string) => `ps -o args | grep -c "${pattern}" || true`;
    const spec = makeSpec({
      setup: [step('service', 'sleep 1001 >/dev/null 2>&1 &')],
      tests: [
        step('leaves', 'sleep 1002 >/dev/null 2>&1 & echo left; exit 3'),
        // The step cannot stop the kill: it runs as another uid than PID 1 and Tandem's execs.
        step('kills-machinery', 'sleep 1003 >/dev/null 2>&1 & kill -9 1 || exit 5'),
        step('after', `${count('sleep 100[1]')}; ${count('sleep 100[23]')}`),
      ],
    });
    const out = await sandbox.runConfiguration(spec);
    const [leaves, killsMachinery, after] = out.tests;
    expect(leaves).toMatchObject({ exitCode: 3, outputTail: 'left\n' });
    expect(killsMachinery?.exitCode).toBe(5);
    expect(after?.outputTail.trim().split('\n')).toEqual(['1', '0']);
  });

  it('stops the configuration at its timeout', async () => {
    const spec = makeSpec({
      timeoutSec: 2,
      tests: [step('quick', 'echo ok'), step('slow', 'echo slow; sleep 60'), step('never', 'echo never')],
    });
    const out = await sandbox.runConfiguration(spec);
    expectConfigurationTimedOut(out);
    await sandbox.removalsSettled();
    expect(containersLabelled(`tandem.configuration=${spec.configurationId}`)).toBe('');
  });

  it('reports a memory kill', async () => {
    const spec = makeSpec({
      limits: { memoryBytes: 128 * MiB, cpus: 1, pids: 256 },
      tests: [
        step('hog', 'node -e "const a=[];for(;;)a.push(Buffer.alloc(6e7,1))"'),
        step('killed-not-oom', 'kill -9 $$'),
      ],
    });
    const out = await sandbox.runConfiguration(spec);
    expect(out.tests[0]).toMatchObject({ exitCode: 137, oomKilled: true, timedOut: false });
    expect(out.tests[1]).toMatchObject({ exitCode: 137, oomKilled: false });
  });

  it('gives steps no network at all', async () => {
    let hits = 0;
    const server: Server = createServer((_req, res) => {
      hits++;
      res.end('reachable');
    });
    await new Promise<void>((r) => server.listen(0, '0.0.0.0', r));
    const port = (server.address() as AddressInfo).port;
    const probe = (url: string) =>
      `node -e "fetch('${url}').then(r=>r.text()).then(t=>{console.log('GOT',t);process.exit(0)},e=>{console.log('FAILED',e.cause&&e.cause.code);process.exit(3)})"`;
    try {
      const out = await sandbox.runConfiguration(
        makeSpec({
          tests: [
            step('loopback', probe(`http://127.0.0.1:${port}/`)),
            step('public', probe('http://example.com/')),
            step('interfaces', 'cat /proc/net/dev | tail -n +3 | cut -d: -f1'),
          ],
        }),
      );
      expect(out.tests[0]).toMatchObject({ exitCode: 3 });
      expect(out.tests[0]?.outputTail).toContain('FAILED');
      expect(out.tests[1]).toMatchObject({ exitCode: 3 });
      expect(out.tests[1]?.outputTail).toContain('FAILED');
      expect(out.tests[2]?.outputTail.trim()).toBe('lo');
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  });

  it('enforces the pids limit', async () => {
    const out = await sandbox.runConfiguration(
      makeSpec({
        limits: { memoryBytes: 256 * MiB, cpus: 1, pids: 64 },
        tests: [step('forks', 'for i in $(seq 1 200); do sleep 5 & done; wait')],
      }),
    );
    expect(out.tests[0]?.exitCode).not.toBe(0);
    expect(out.tests[0]?.outputTail).toMatch(/can't fork|Resource temporarily unavailable/);
  });

  it('keeps configurations apart', async () => {
    const specs = ['one', 'two'].map((name) =>
      makeSpec({
        tests: [
          step(
            'write',
            `echo ${name} > api/shared.txt; sleep 1; cat api/shared.txt; ls "$TANDEM_RESULTS"; touch "$TANDEM_RESULTS/${name}"`,
          ),
        ],
      }),
    );
    const outs = await Promise.all(specs.map((s) => sandbox.runConfiguration(s)));
    expect(outs[0]?.tests[0]?.outputTail).toBe('one\n');
    expect(outs[1]?.tests[0]?.outputTail).toBe('two\n');
    expect(readFileSync(path.join(specs[0]?.workspaceDir ?? '', 'api/shared.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(path.join(specs[1]?.workspaceDir ?? '', 'api/shared.txt'), 'utf8')).toBe('two\n');
  });

  it('removes the container when aborted', async () => {
    const controller = new AbortController();
    const spec = makeSpec({ signal: controller.signal, tests: [step('t', 'sleep 60'), step('u', 'true')] });
    const label = `tandem.configuration=${spec.configurationId}`;
    const running = sandbox.runConfiguration(spec);
    const settled = running.catch((e: unknown) => e);
    for (let i = 0; i < 100 && containersLabelled(label) === ''; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(containersLabelled(label)).not.toBe('');
    controller.abort();
    const err = await settled;
    expect(err).toBeInstanceOf(InfraError);
    expect(err).toMatchObject({ kind: 'aborted' });
    await sandbox.removalsSettled();
    expect(containersLabelled(label)).toBe('');
    await expect(sandbox.runConfiguration(makeSpec({ signal: controller.signal }))).rejects.toMatchObject({
      kind: 'aborted',
    });
  });

  it('keeps only the tail of long output', async () => {
    const out = await sandbox.runConfiguration(
      makeSpec({
        outputCapBytes: 1000,
        tests: [step('loud', 'i=0; while [ $i -lt 5000 ]; do echo "line $i"; i=$((i+1)); done; echo LAST')],
      }),
    );
    const tail = out.tests[0]?.outputTail ?? '';
    expect(tail).toMatch(/^\[\.\.\. \d+ bytes cut\]\n/);
    expect(tail.endsWith('line 4999\nLAST\n')).toBe(true);
    const cut = Number(/^\[\.\.\. (\d+) bytes cut\]/.exec(tail)?.[1]);
    expect(tail.length - tail.indexOf('\n') - 1).toBe(1000);
    expect(cut + 1000).toBe(
      Buffer.byteLength(Array.from({ length: 5000 }, (_, i) => `line ${i}\n`).join('')) + 5,
    );
  });

  it('prepares a repository with its egress proxy, CA bundle and stop-at-first-failure', async () => {
    const server = createServer((_req, res) => res.end('package-data'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const repoDir = tempDir();
    const ca = path.join(tempDir(), 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\nfake\n-----END CERTIFICATE-----\n');
    try {
      const out = await sandbox.prepare({
        image: IMAGE,
        repoDir,
        repoName: 'api',
        commands: [
          'pwd; echo "$NODE_EXTRA_CA_CERTS $SSL_CERT_FILE $GIT_SSL_CAINFO $npm_config_cafile"; head -1 "$SSL_CERT_FILE"',
          // Host loopback is never reached, through the proxy or around it (test/security/prepare-egress).
          `node -e "fetch('http://127.0.0.1:${port}/').then(r=>r.text()).then(t=>require('fs').writeFileSync('fetched.txt',t))" || echo loopback-refused`,
          `wget -q -O fetched2.txt http://127.0.0.1:${port}/ || echo proxy-refused`,
          'exit 4',
          'touch never.txt',
        ],
        timeoutSec: 60,
        limits: { memoryBytes: 512 * MiB, cpus: 1, pids: 256 },
        network: 'host',
        caBundle: ca,
        outputCapBytes: 10_000,
      });
      expect(out).toMatchObject({ exitCode: 4, timedOut: false, oomKilled: false });
      const cert = '/etc/ssl/certs/ca-certificates.crt';
      expect(out.outputTail).toContain(
        `/tandem/workspace/api\n${cert} ${cert} ${cert} ${cert}\n-----BEGIN CERTIFICATE-----`,
      );
      expect(out.outputTail).toContain('loopback-refused');
      expect(out.outputTail).toContain('proxy-refused');
      expect(() => readFileSync(path.join(repoDir, 'fetched.txt'))).toThrow();
      expect(() => readFileSync(path.join(repoDir, 'never.txt'))).toThrow();

      const slow = await sandbox.prepare({
        image: IMAGE,
        repoDir,
        repoName: 'api',
        commands: ['echo before', 'sleep 60'],
        timeoutSec: 2,
        limits: { memoryBytes: 256 * MiB, cpus: 1, pids: 64 },
        network: 'none',
        outputCapBytes: 10_000,
      });
      expect(slow).toMatchObject({ exitCode: null, timedOut: true, outputTail: 'before\n' });
      await sandbox.removalsSettled();
      expect(containersLabelled('tandem.prepare=api')).toBe('');
    } finally {
      server.close();
    }
  });

  it('dispose removes containers still running', async () => {
    const local = new DockerSandbox();
    const spec = makeSpec({ tests: [step('t', 'sleep 60')] });
    const label = `tandem.configuration=${spec.configurationId}`;
    const settled = local.runConfiguration(spec).catch((e: unknown) => e);
    for (let i = 0; i < 100 && containersLabelled(label) === ''; i++)
      await new Promise((r) => setTimeout(r, 100));
    await local.dispose();
    expect(containersLabelled(label)).toBe('');
    const err = await settled;
    expect(err).toBeInstanceOf(InfraError);
  });

  it('measures the per-configuration overhead of a trivial step', async () => {
    const n = 10;
    const started = performance.now();
    for (let i = 0; i < n; i++) {
      const out = await sandbox.runConfiguration(makeSpec({ tests: [step('true', 'true')] }));
      expect(out.tests[0]?.exitCode).toBe(0);
    }
    const perConfig = (performance.now() - started) / n;
    console.log(
      `docker sandbox overhead: ${perConfig.toFixed(0)} ms per configuration (trivial step, ${n} runs)`,
    );
    // Containers go off the run's critical path: wait for the removals before looking.
    await sandbox.removalsSettled();
    const left = execFileSync(
      'docker',
      ['ps', '-a', '--filter', 'label=tandem.configuration', '--format', '{{.Label "tandem.configuration"}}'],
      { encoding: 'utf8' },
    );
    expect(left).not.toContain(runTag);
  });
});
