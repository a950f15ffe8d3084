/**
 * Attacks on the verdict itself (issue 18, items 1–4), with real Docker, git and the project's
 * sandbox image: PR code running in one test group tries to make a later group — one that runs
 * no PR code and honestly fails — pass, and to turn its own failure into "not a verdict".
 *   1. planting the later group's result file in a shared results folder;
 *   2. replacing the shell every later step is started with (`/usr/local/bin/sh`, first on PATH);
 *   3. taking over the container's PID 1 through `/proc/1/mem`, or signalling Tandem's own execs;
 *   4. stopping the container (`kill -TERM 1`) so the configuration ends as an infrastructure error.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import { DockerSandbox } from '../../src/engine/docker/docker-sandbox.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { SANDBOX_IMAGE, shellCase, tapScript } from '../helpers/example-cases.ts';
import { sandboxSpecs, step } from '../helpers/sandbox-spec.ts';

const run = promisify(execFile);

const docker = dockerSuite('sec-verdict');

/** A TAP file where the honest group's one test passes: what the attacker wants graded. */
const FORGED = 'printf "TAP version 13\\n1..1\\nok 1 - honest check\\n"';

/** PR code of group `plant`: forged files for `honest` everywhere a shared folder might be. */
const PLANT = `for d in "$TANDEM_RESULTS" "$TANDEM_RESULTS/.." /tandem/results; do ${FORGED} > "$d/honest.tap" 2>/dev/null; done; true
`;

/** PR code of group `shell`: a shell that forges `honest`'s result whatever it is asked to run. */
const REPLACE_SHELL = `cat > /tmp/fake-sh <<'FAKE'
#!/bin/busybox sh
for d in "$TANDEM_RESULTS" /tandem/results; do ${FORGED} > "$d/honest.tap" 2>/dev/null; done
echo ran > "$TANDEM_WORKSPACE/app/fake-sh-ran" 2>/dev/null
exit 0
FAKE
chmod +x /tmp/fake-sh
for p in /usr/local/bin/sh /usr/local/bin/node; do cp /tmp/fake-sh "$p" 2>/dev/null && echo "replaced $p" >> "$TANDEM_WORKSPACE/app/replaced"; done
true
`;

/** PR code of group `pid1`: what a takeover of PID 1 or of Tandem's execs needs. */
const REACH_PID1 = `cd "$TANDEM_WORKSPACE/app"
{ exec 3<>/proc/1/mem; } 2>/dev/null && echo mem > reached
kill -0 1 2>/dev/null && echo signal >> reached
[ "$(id -u)" = 0 ] && echo root >> reached
true
`;

function groupOf(report: Report, configuration: string, name: string) {
  const c = report.configurations.find((x) => x.id === configuration);
  const g = c?.groups.find((x) => x.name === name);
  if (!c || !g) throw new Error(`no group ${name} in ${configuration}`);
  return { configuration: c, group: g };
}

describe('attack: forging a later group’s verdict', () => {
  let report: Report;

  beforeAll(async () => {
    const c = await shellCase({
      name: 'verdict-forgery',
      repos: [
        {
          name: 'app',
          base: { 'attack-plant.sh': 'true\n', 'attack-shell.sh': 'true\n', 'attack-pid1.sh': 'true\n' },
          head: { 'attack-plant.sh': PLANT, 'attack-shell.sh': REPLACE_SHELL, 'attack-pid1.sh': REACH_PID1 },
        },
      ],
      suite: {
        name: 'verdict-forgery-suite',
        image: SANDBOX_IMAGE,
        tests: [
          // Each attack group runs the PR's script, then an honest check of its own.
          ...['plant', 'shell', 'pid1'].map((name) => ({
            name,
            files: ['hidden/own.sh'],
            run: `sh app/attack-${name}.sh; sh $TANDEM_HIDDEN/own.sh ${name}`,
            results: { format: 'tap' as const, path: `${name}.tap` },
          })),
          // Runs no PR code and fails honestly: exit 2, no result file.
          {
            name: 'honest',
            files: ['hidden/honest.sh'],
            run: 'sh $TANDEM_HIDDEN/honest.sh',
            results: { format: 'tap', path: 'honest.tap' },
          },
          // Says every test passed, and exits 1: flagged in the report.
          {
            name: 'liar',
            run: `${FORGED.replace('honest check', 'liar')} > "$TANDEM_RESULTS/liar.tap"; exit 1`,
            results: { format: 'tap', path: 'liar.tap' },
          },
          // The last word: what the attacks left behind.
          {
            name: 'after',
            files: ['hidden/after.sh'],
            run: 'sh $TANDEM_HIDDEN/after.sh',
            results: { format: 'tap', path: 'after.tap' },
          },
        ],
      },
      hidden: {
        'hidden/own.sh': `${FORGED.replace('honest check', '$1 own check')} > "$TANDEM_RESULTS/$1.tap"\n`,
        'hidden/honest.sh': 'echo "the feature is missing" >&2; exit 2\n',
        'hidden/after.sh': tapScript('after.tap', [
          { name: 'no shell was replaced', cmd: 'test ! -e app/replaced' },
          { name: 'no fake shell ran', cmd: 'test ! -e app/fake-sh-ran' },
          { name: 'PID 1 was out of reach', cmd: 'test ! -e app/reached' },
          { name: 'steps run unprivileged', cmd: 'test "$(id -u)" != 0' },
        ]),
      },
    });
    docker.track(c.root);
    report = await docker.evaluate(c.input, { useResultCache: false });
  }, 300_000);

  it('grades a group only by the file it wrote itself, during its own step', () => {
    expect(report.infraErrors).toEqual([]);
    const { group } = groupOf(report, 'full', 'honest');
    expect(group.status).toBe('crashed');
    expect(group.exitCode).toBe(2);
    expect(group.reason).toContain('without writing honest.tap');
  });

  it('flags a group whose command failed while its file says every test passed', () => {
    const { group } = groupOf(report, 'full', 'liar');
    expect(group).toMatchObject({ status: 'reported', exitCode: 1, failedExitAllPassed: true });
    for (const name of ['plant', 'shell', 'pid1', 'after'])
      expect(groupOf(report, 'full', name).group.failedExitAllPassed).toBeUndefined();
  });

  /** The `after` group's checks: what the attacks left behind. */
  const afterChecks = () => {
    const { configuration } = groupOf(report, 'full', 'after');
    return Object.fromEntries(
      configuration.tests
        .filter((t) => t.id.startsWith('after::'))
        .map((t) => [t.id.split('::').pop(), t.status]),
    );
  };

  it('leaves PR code no shell or PATH entry to replace for later steps', () => {
    expect(groupOf(report, 'full', 'after').group.status).toBe('reported');
    expect(afterChecks()).toMatchObject({ 'no shell was replaced': 'passed', 'no fake shell ran': 'passed' });
  });

  it('runs steps unprivileged, with PID 1 out of reach', () => {
    expect(afterChecks()).toMatchObject({
      'PID 1 was out of reach': 'passed',
      'steps run unprivileged': 'passed',
    });
  });
});

describe('attack: the container dying under PR code', () => {
  const specs = sandboxSpecs({ prefix: 'tandem-sec-lost-', image: SANDBOX_IMAGE });

  it('fails the step it ran with the reason, and runs nothing after it', async () => {
    const sandbox = new DockerSandbox();
    try {
      const spec = specs.makeSpec({ tests: [step('dies', 'sleep 31; exit 0'), step('next', 'true')] });
      const running = sandbox.runConfiguration(spec);
      // PID 1 goes once the step runs (what a step as root could do on 2d43ae8, or the engine's OOM killer).
      const id = await containerOf(spec.configurationId);
      const asRoot = ['exec', '-u', '0'];
      await run('docker', [
        ...asRoot,
        id,
        '/bin/sh',
        '-c',
        'while ! grep -qs "sleep 3[1]" /proc/[0-9]*/cmdline; do sleep 0.05; done',
      ]);
      // Detached: an exec still attached when PID 1 goes can end with an error of its own.
      await run('docker', [...asRoot, '-d', id, '/bin/sh', '-c', 'kill -TERM 1']);
      const out = await running;
      expect(out.tests[0]).toMatchObject({ notRun: false });
      expect(out.tests[0]?.containerLost).toMatch(/the container stopped while this step ran/);
      expect(out.tests[1]).toMatchObject({ notRun: true });
      expect(out.containerLost).toEqual({ step: 'dies', reason: out.tests[0]?.containerLost });
    } finally {
      await sandbox.dispose();
    }
  });
});

/** The id of the container running `configuration`, once it exists (bounded wait on the engine). */
async function containerOf(configuration: string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const { stdout } = await run('docker', [
      'ps',
      '-q',
      '--filter',
      `label=tandem.configuration=${configuration}`,
    ]);
    if (stdout.trim()) return stdout.trim();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no container for ${configuration}`);
}

describe('attack: turning a failure into "not a verdict"', () => {
  it('`kill -TERM 1` from PR code fails the configuration, never an infrastructure error', async () => {
    const c = await shellCase({
      name: 'stop-container',
      repos: [{ name: 'app', base: { 'stop.sh': 'true\n' }, head: { 'stop.sh': 'kill -TERM 1; sleep 5\n' } }],
      suite: {
        name: 'stop-container-suite',
        image: SANDBOX_IMAGE,
        tests: [
          { name: 'stops', run: 'sh app/stop.sh; exit 1', results: { format: 'tap', path: 'stops.tap' } },
          {
            name: 'checks',
            files: ['hidden/checks.sh'],
            run: 'sh $TANDEM_HIDDEN/checks.sh',
            results: { format: 'tap', path: 'checks.tap' },
          },
        ],
      },
      hidden: { 'hidden/checks.sh': tapScript('checks.tap', [{ name: 'feature', cmd: 'false' }]) },
    });
    docker.track(c.root);
    const report = await docker.evaluate(c.input, { useResultCache: false });
    expect(report.infraErrors).toEqual([]);
    expect(report.outcome).toBe('unresolved');
    const full = report.configurations.find((x) => x.id === 'full')!;
    expect(full.outcome).toBe('fail');
    expect(full.error).toBeUndefined();
  });
});
