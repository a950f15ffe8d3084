/**
 * Dependency preparation through the whole engine (base states share by key files, a PR head
 * never shares with base; mounted read-only, a failing install is an infrastructure error) and reruns of the
 * full configuration catching a flaky test.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import { suiteSchema } from '../../src/core/suite.schema.ts';
import type { EvaluationEvent } from '../../src/engine/evaluate-api.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import {
  appChecksCase,
  SANDBOX_IMAGE as IMAGE,
  type ShellCase,
  shellCase,
  shellGroup,
  subdirs,
  tapScript,
} from '../helpers/example-cases.ts';

const docker = dockerSuite('engine-prepare');
const INSTALL = 'mkdir -p node_modules/dep && echo "module.exports = 42;" > node_modules/dep/index.js';

type PrepareDone = Extract<EvaluationEvent, { type: 'prepare-done' }>;

describe('prepare', () => {
  let c: ShellCase;
  let report: Report;
  const events: PrepareDone[] = [];

  beforeAll(async () => {
    c = await shellCase({
      name: 'prepared',
      repos: [
        {
          name: 'app',
          base: {
            'package.json': '{ "name": "app" }\n',
            'index.js': 'module.exports = require("dep") - 1;\n',
          },
          head: { 'index.js': 'module.exports = require("dep");\n' },
        },
      ],
      suite: {
        name: 'prepare-suite',
        image: IMAGE,
        prepare: { 'acme/app': { run: INSTALL, key_files: ['package.json'] } },
        tests: [
          shellGroup('deps', { files: ['hidden/deps.sh', 'hidden/answer.js', 'hidden/write-deps.js'] }),
        ],
      },
      hidden: {
        'hidden/deps.sh': tapScript('deps.tap', [
          { name: 'requires the prepared dependency', cmd: 'cd app && node -e "require(\'dep\')"' },
          { name: 'the app answers 42', cmd: 'node $TANDEM_HIDDEN/answer.js' },
          { name: 'node_modules is read-only', cmd: 'node $TANDEM_HIDDEN/write-deps.js' },
        ]),
        'hidden/answer.js': "process.exit(require(process.env.TANDEM_WORKSPACE + '/app') === 42 ? 0 : 1);\n",
        'hidden/write-deps.js': `const fs = require('node:fs');
try {
  fs.writeFileSync(process.env.TANDEM_WORKSPACE + '/app/node_modules/dep/index.js', 'module.exports = 0;');
  console.log('wrote into node_modules');
  process.exit(1);
} catch (e) {
  console.log('write failed with', e.code);
  process.exit(e.code === 'EROFS' ? 0 : 2);
}
`,
      },
    });
    docker.track(c.root);
    report = await docker.evaluate(c.input, {
      onEvent: (e) => {
        if (e.type === 'prepare-done') events.push(e);
      },
    });
  }, 120_000);

  it('lets tests require what prepare installed, read-only', () => {
    expect(report.infraErrors).toEqual([]);
    expect(report.outcome).toBe('resolved');
    const full = report.configurations.find((x) => x.id === 'full')!;
    expect(full.tests.map((t) => [t.id.replace(/^deps::+/, ''), t.status]).sort()).toEqual([
      ['node_modules is read-only', 'passed'],
      ['requires the prepared dependency', 'passed'],
      ['the app answers 42', 'passed'],
    ]);
    expect(report.tests.failToPass).toEqual([expect.stringContaining('the app answers 42')]);
  });

  it('prepares the PR head apart from base even when their key files are identical', async () => {
    // The head's install ran the PR's own scripts: it never shares a folder with base (issue 8).
    expect(events.map((e) => e.repo)).toEqual(['acme/app', 'acme/app']);
    expect(new Set(events.map((e) => e.key)).size).toBe(2);
    const prepared = (await subdirs(path.join(docker.cacheDir, 'deps'))).filter((d) => !d.endsWith('.lock'));
    expect(prepared).toEqual(events.map((e) => e.key).sort());
  });

  it('reuses the prepared folder in the next evaluation', async () => {
    const again: PrepareDone[] = [];
    await docker.evaluate(c.input, {
      useResultCache: false,
      onEvent: (e) => {
        if (e.type === 'prepare-done') again.push(e);
      },
    });
    expect(again.length).toBeGreaterThan(0);
    expect(again.every((e) => e.reused && events.some((first) => first.key === e.key))).toBe(true);
  });

  it('turns a failing prepare into an infrastructure error of kind prepare', async () => {
    const suite = suiteSchema.parse({
      ...c.input.suite,
      prepare: {
        'acme/app': { run: 'echo "registry unreachable-1234"; exit 3', key_files: ['package.json'] },
      },
    });
    const broken = await docker.evaluate({ ...c.input, suite });
    expect(broken.outcome).toBe('error');
    expect(broken.configurations.map((x) => x.outcome)).toEqual(['error', 'error']);
    expect(broken.infraErrors).toHaveLength(1);
    expect(broken.infraErrors[0]).toMatchObject({ kind: 'prepare', target: 'acme/app' });
    expect(broken.infraErrors[0]!.message).toMatch(/exited with 3/);
    expect(broken.infraErrors[0]!.message).toContain('registry unreachable-1234');
  });
});

describe('reruns of the full configuration', () => {
  it('report a test whose status differs between runs as flaky, with its statuses', async () => {
    const c = await appChecksCase({
      name: 'flaky',
      base: { 'app.txt': 'alpha\n' },
      head: { 'feature.txt': 'on\n' },
      checks: [
        { name: 'stable', cmd: 'test -f app/app.txt' },
        // A coin toss per run: 4 runs all agreeing has probability 1/8.
        { name: 'coin toss', cmd: 'test $(( $(od -An -N1 -tu1 /dev/urandom) % 2 )) -eq 0' },
      ],
    });
    docker.track(c.root);
    let report: Report | undefined;
    // Bounded: five evaluations all without a disagreement happen with probability 8^-5.
    for (let i = 0; i < 5 && !report?.flaky.length; i++) {
      report = await docker.evaluate(c.input, { reruns: 3, useResultCache: false });
    }
    expect(report!.matrix.reruns).toBe(3);
    const full = report!.configurations.find((x) => x.id === 'full')!;
    expect(full.runs).toBe(4);
    expect(report!.flaky).toEqual([
      { id: expect.stringContaining('coin toss'), statuses: expect.any(Array) },
    ]);
    const statuses = report!.flaky[0]!.statuses;
    expect(statuses).toHaveLength(4);
    expect(new Set(statuses)).toEqual(new Set(['passed', 'failed']));
    // A test that did not pass in every run does not pass.
    expect(full.tests.find((t) => t.id.includes('coin toss'))!.status).toBe('failed');
    expect(full.outcome).toBe('fail');
  });
});
