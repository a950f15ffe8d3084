/**
 * Infrastructure errors through the whole engine: a patch that does not apply (and one that
 * does), an unknown ref. Each is its own outcome — never a pass, never a fail — and only the
 * configurations that need the broken part are affected. A result file that cannot be parsed is
 * not one of them: the code under test wrote it, so its group fails.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Report, reportSchema } from '../../src/core/report.schema.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import {
  SANDBOX_IMAGE as IMAGE,
  shellCase,
  shellGroup,
  tapScript,
  unknownRefCase,
} from '../helpers/example-cases.ts';

const docker = dockerSuite('engine-infra');

const byId = (r: Report, id: string) => r.configurations.find((c) => c.id === id)!;

describe('patch targets', () => {
  let report: Report;
  beforeAll(async () => {
    const c = await shellCase({
      name: 'patches',
      repos: [
        { name: 'lib', base: { 'lib.txt': 'one\ntwo\nthree\n' } },
        { name: 'app', base: { 'app.txt': 'alpha\nbeta\ngamma\n' } },
      ],
      patches: {
        // Applies cleanly with plain `git apply`.
        lib: 'diff --git a/lib.txt b/lib.txt\n--- a/lib.txt\n+++ b/lib.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n',
        // Removes a line base never had: every method of the fallback chain fails.
        app: 'diff --git a/app.txt b/app.txt\n--- a/app.txt\n+++ b/app.txt\n@@ -1,3 +1,3 @@\n red\n-green\n+GREEN\n blue\n',
      },
      suite: { name: 'patch-suite', image: IMAGE, tests: [shellGroup('checks')] },
      hidden: {
        'hidden/checks.sh': tapScript('checks.tap', [
          { name: 'lib is patched', cmd: 'grep -q TWO lib/lib.txt' },
        ]),
      },
    });
    docker.track(c.root);
    report = await docker.evaluate(c.input);
  }, 120_000);

  it('reports a patch that does not apply as patch-failed naming the target; outcome error', () => {
    expect(() => reportSchema.parse(report)).not.toThrow();
    expect(report.outcome).toBe('error');
    expect(report.patch_successfully_applied).toBe(false);
    expect(report.resolved).toBe(false);
    expect(report.verdict).toMatchObject({ resolved: false, jointlyNecessary: null, fixRate: 0 });
    expect(report.infraErrors).toHaveLength(1);
    expect(report.infraErrors[0]).toMatchObject({ kind: 'patch-failed', target: 'acme/app' });
    expect(report.targets.find((t) => t.repo === 'acme/app')).toMatchObject({
      error: { kind: 'patch-failed', target: 'acme/app' },
    });
  });

  it('makes only the configurations applying the broken patch errors; the others still run', () => {
    expect(report.configurations.map((c) => [c.id, c.outcome])).toEqual([
      ['base', 'fail'],
      ['lib', 'pass'],
      ['app', 'error'],
      ['full', 'error'],
    ]);
    for (const id of ['app', 'full']) {
      expect(byId(report, id).error).toMatchObject({
        kind: 'patch-failed',
        target: 'acme/app',
        configuration: id,
      });
      expect(byId(report, id).tests).toEqual([]);
    }
    expect(byId(report, 'base').groups).toEqual([
      expect.objectContaining({ name: 'checks', status: 'reported' }),
    ]);
  });

  it('records how a patch that applies was applied', () => {
    const lib = report.targets.find((t) => t.repo === 'acme/lib')!;
    expect(lib.error).toBeUndefined();
    expect(lib.head).toMatchObject({
      kind: 'patch',
      patch: { file: 'patches/lib.diff', method: 'git apply' },
    });
    expect(lib.head!.sha).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe('an unknown ref', () => {
  it('is an unknown-ref infra error naming the target and the ref; base still runs', async () => {
    const c = await unknownRefCase();
    docker.track(c.root);
    const report = await docker.evaluate(c.input);
    expect(report.outcome).toBe('error');
    expect(report.infraErrors).toHaveLength(1);
    expect(report.infraErrors[0]).toMatchObject({ kind: 'unknown-ref', target: 'acme/app' });
    expect(report.infraErrors[0]!.message).toContain('no-such-branch');
    expect(byId(report, 'base').outcome).toBe('pass');
    expect(byId(report, 'full')).toMatchObject({
      outcome: 'error',
      error: { kind: 'unknown-ref', target: 'acme/app' },
    });
    expect(report.targets[0]!.head).toBeUndefined();
    // A ref that is missing is not a patch that failed.
    expect(report.patch_successfully_applied).toBe(true);
  });
});

describe('a result file that cannot be parsed', () => {
  it("fails its group in Tandem's words: the code under test wrote it, so it is no infrastructure error", async () => {
    const junit =
      '<testsuites><testsuite name="s" tests="1"><testcase classname="c" name="works"/></testsuite></testsuites>';
    const c = await shellCase({
      name: 'garbage-results',
      repos: [{ name: 'app', base: { 'app.txt': 'alpha\n' }, head: { feature: 'on\n' } }],
      suite: {
        name: 'garbage-suite',
        image: IMAGE,
        tests: [
          {
            name: 'xml',
            run: `if [ -f app/feature ]; then echo '<<<%% not xml at all' > $TANDEM_RESULTS/r.xml; else echo '${junit}' > $TANDEM_RESULTS/r.xml; fi`,
            results: { format: 'junit', path: 'r.xml' },
          },
        ],
      },
      hidden: {},
    });
    docker.track(c.root);
    const report = await docker.evaluate(c.input);
    expect(byId(report, 'base').outcome).toBe('pass');
    const full = byId(report, 'full');
    expect(full.outcome).toBe('fail');
    expect(full.error).toBeUndefined();
    expect(full.groups[0]).toMatchObject({ name: 'xml', status: 'crashed' });
    expect(full.groups[0]!.reason).toBe('result file r.xml is not valid junit; Tandem could not read it');
    expect(report.outcome).toBe('unresolved');
    expect(report.infraErrors).toEqual([]);
    expect(report.patch_successfully_applied).toBe(true);
  });
});
