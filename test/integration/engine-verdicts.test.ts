/**
 * The whole engine on real git and Docker: the verdicts docs/design.md defines (jointly necessary,
 * unnecessary target, incomplete change, regression) and the result cache across evaluations.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Report, reportSchema } from '../../src/core/report.schema.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import {
  appChecksCase,
  EXAMPLE_VERDICT,
  type Example,
  exampleCase,
  exampleSuite,
  exampleTarget,
  pushCommit,
  type ShellCase,
  writeCase,
  writeExampleSuite,
} from '../helpers/example-cases.ts';
import { commitOn, createRepo } from '../helpers/git-fixtures.ts';
import { metrics } from '../helpers/runs.ts';

const SCHEMA = 'acme/schema';
const API = 'acme/api';
const WEB = 'acme/web';

const docker = dockerSuite('engine-verdicts');
let ex: Example;
let jointly: Report;

function config(report: Report, applied: string[]) {
  const c = report.configurations.find(
    (x) => x.applied.length === applied.length && applied.every((a) => x.applied.includes(a)),
  );
  if (!c) throw new Error(`no configuration with ${applied.join('+') || 'nothing'} applied`);
  return c;
}

function outcomes(report: Report): Record<string, string> {
  return Object.fromEntries(report.configurations.map((c) => [c.id, c.outcome]));
}

beforeAll(async () => {
  ex = await exampleCase();
  docker.track(ex.root);
  jointly = await docker.evaluate(ex.input);
}, 240_000);

describe('a jointly necessary change (the embedded example)', () => {
  it('is resolved and jointly necessary: only full passes among all 8 configurations', () => {
    expect(() => reportSchema.parse(jointly)).not.toThrow();
    expect(jointly.outcome).toBe('resolved');
    expect(jointly.verdict).toMatchObject(EXAMPLE_VERDICT);
    expect(jointly.verdict.jointlyNecessaryBasis).toBe('full');
    expect(jointly.configurations).toHaveLength(8);
    expect(outcomes(jointly)).toEqual({
      base: 'fail',
      schema: 'fail',
      api: 'fail',
      web: 'fail',
      'schema+api': 'fail',
      'schema+web': 'fail',
      'api+web': 'fail',
      full: 'pass',
    });
    expect(config(jointly, [SCHEMA, API, WEB])).toMatchObject({
      id: 'full',
      role: 'full',
      passed: 6,
      total: 6,
    });
    // schema+api fixes everything but the web group's currency test.
    expect(config(jointly, [SCHEMA, API])).toMatchObject({
      passed: 5,
      total: 6,
      f2p: { passed: 2, total: 3 },
    });
    expect(jointly.infraErrors).toEqual([]);
    expect(jointly.patch_successfully_applied).toBe(true);
    expect(jointly.resolved).toBe(true);
  });

  it('classifies F2P and P2P from the all-base run and reports them SWE-bench style', () => {
    expect(jointly.tests.source).toEqual({ failToPass: 'base-run', passToPass: 'base-run' });
    expect(jointly.tests.failToPass).toHaveLength(3);
    expect(jointly.tests.passToPass).toHaveLength(3);
    expect(jointly.tests_status.FAIL_TO_PASS.failure).toEqual([]);
    expect(jointly.tests_status.FAIL_TO_PASS.success.sort()).toEqual([...jointly.tests.failToPass].sort());
    expect(jointly.tests_status.PASS_TO_PASS.success.sort()).toEqual([...jointly.tests.passToPass].sort());
    expect(
      jointly.tests.failToPass.some((id) => id.startsWith('web::') && id.includes('renders the currency')),
    ).toBe(true);
  });

  it('reports per-repository metrics for groups that name their repo', () => {
    expect(jointly.repositories.map((r) => r.repo).sort()).toEqual([API, SCHEMA, WEB]);
    for (const r of jointly.repositories) {
      expect(r).toMatchObject(
        metrics(r.repo, [1, 1], [1, 1], { f2pComplete: true, p2pPreserved: true, success: true }),
      );
    }
  });

  it('records each target with resolved base and head commits', () => {
    expect(jointly.targets.map((t) => t.repo)).toEqual([SCHEMA, API, WEB]);
    for (const t of jointly.targets) {
      expect(t.base).toMatchObject({ ref: 'main', sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
      expect(t.head).toMatchObject({
        ref: 'multi-currency',
        kind: 'branch',
        sha: expect.stringMatching(/^[0-9a-f]{40}$/),
      });
      expect(t.head!.sha).not.toBe(t.base.sha);
    }
    expect(jointly.sandbox).toBe('docker');
    expect(jointly.suite.imageId).toMatch(/^sha256:/);
  });
});

describe('result cache', () => {
  it('reuses every configuration on a second run, with the same verdict', async () => {
    const again = await docker.evaluate(ex.input);
    expect(again.configurations.every((c) => c.cached)).toBe(true);
    expect(again.verdict).toEqual(jointly.verdict);
    expect(outcomes(again)).toEqual(outcomes(jointly));
  });

  it('after a push to one head branch, re-runs only configurations with that target at head', async () => {
    await pushCommit(ex.remotes.web, 'multi-currency', { 'NOTES.md': 'follow-up commit\n' });
    const after = await docker.evaluate(ex.input);
    const webHead = after.targets.find((t) => t.repo === WEB)!.head!.sha;
    expect(webHead).not.toBe(jointly.targets.find((t) => t.repo === WEB)!.head!.sha);
    for (const c of after.configurations) {
      expect({ id: c.id, cached: c.cached }).toEqual({ id: c.id, cached: !c.applied.includes(WEB) });
    }
    expect(after.verdict).toEqual(jointly.verdict);
    expect(outcomes(after)).toEqual(outcomes(jointly));
  });
});

describe('a change with an unnecessary target', () => {
  it('lists the README-only target as unnecessary; not jointly necessary, still resolved', async () => {
    const docs = await createRepo(path.join(ex.root, 'remotes'), 'docs', { 'README.md': '# Docs\n' });
    await commitOn(docs, 'multi-currency', { 'README.md': '# Docs\n\nPrices come in several currencies.\n' });
    const suite = await writeExampleSuite(ex, 'suite-schema-api.yml', exampleSuite(['schema', 'api']));
    const c = await writeCase(ex.root, 'case-unnecessary.yml', {
      name: 'with-readme-target',
      suite,
      targets: [
        exampleTarget(ex, 'schema'),
        exampleTarget(ex, 'api'),
        { repo: 'acme/docs', url: docs.url, base: 'main', head: 'multi-currency' },
      ],
    });
    const report = await docker.evaluate(c.input);
    expect(report.outcome).toBe('resolved');
    expect(report.verdict).toMatchObject({
      resolved: true,
      jointlyNecessary: false,
      unnecessary: ['acme/docs'],
      fixRate: 1,
    });
    expect(report.configurations).toHaveLength(8);
    expect(config(report, [SCHEMA, API]).outcome).toBe('pass');
    expect(config(report, [SCHEMA, API, 'acme/docs']).outcome).toBe('pass');
    expect(
      report.configurations
        .filter((x) => x.outcome === 'pass')
        .map((x) => x.id)
        .sort(),
    ).toEqual(['full', 'schema+api']);
    expect(report.infraErrors).toEqual([]);
  });
});

describe('an incomplete change', () => {
  let report: Report;
  beforeAll(async () => {
    const c = await writeCase(ex.root, 'case-incomplete.yml', {
      name: 'missing-web',
      suite: 'evaluator/suite.yml',
      targets: [exampleTarget(ex, 'schema'), exampleTarget(ex, 'api')],
      context: [{ repo: WEB, url: ex.remotes.web, ref: 'main' }],
    });
    report = await docker.evaluate(c.input);
  }, 120_000);

  it('is unresolved with a fix rate below 1 when a needed PR is missing', () => {
    expect(report.outcome).toBe('unresolved');
    expect(report.verdict).toMatchObject({ resolved: false, jointlyNecessary: false, unnecessary: [] });
    expect(report.verdict.fixRate).toBeCloseTo(2 / 3, 5);
    expect(report.configurations.map((c) => c.id)).toEqual(['base', 'schema', 'api', 'full']);
    expect(outcomes(report)).toEqual({ base: 'fail', schema: 'fail', api: 'fail', full: 'fail' });
    const failing = report.tests_status.FAIL_TO_PASS.failure;
    expect(failing).toHaveLength(1);
    expect(failing[0]).toMatch(/^web::.*renders the currency/);
    expect(report.tests_status.PASS_TO_PASS.failure).toEqual([]);
  });

  it('pins the context repository at its ref and judges it per repository', () => {
    expect(report.context).toEqual([
      { repo: WEB, url: ex.remotes.web, ref: 'main', sha: expect.stringMatching(/^[0-9a-f]{40}$/) },
    ]);
    const web = report.repositories.find((r) => r.repo === WEB)!;
    expect(web).toMatchObject({ f2pComplete: false, p2pPreserved: true, success: false });
    expect(report.repositories.find((r) => r.repo === SCHEMA)!.success).toBe(true);
  });
});

describe('a regression of a passing test', () => {
  let c: ShellCase;
  let first: Report;
  beforeAll(async () => {
    c = await appChecksCase({
      name: 'regression',
      base: { 'lib.txt': 'legacy\n' },
      head: { 'lib.txt': 'feature\n' },
      checks: [
        { name: 'keeps legacy', cmd: 'grep -q legacy app/lib.txt' },
        { name: 'adds feature', cmd: 'grep -q feature app/lib.txt' },
      ],
    });
    docker.track(c.root);
    first = await docker.evaluate(c.input);
  }, 120_000);

  it('is not resolved, with fix rate 0 and the P2P test listed as a failure', () => {
    expect(first.outcome).toBe('unresolved');
    expect(first.verdict).toMatchObject({
      resolved: false,
      jointlyNecessary: false,
      unnecessary: [],
      fixRate: 0,
    });
    expect(first.resolved).toBe(false);
    expect(first.tests_status.PASS_TO_PASS.failure).toEqual([
      expect.stringMatching(/^checks::.*keeps legacy$/),
    ]);
    expect(first.tests_status.PASS_TO_PASS.success).toEqual([]);
    expect(first.tests_status.FAIL_TO_PASS.success).toEqual([
      expect.stringMatching(/^checks::.*adds feature$/),
    ]);
    const full = first.configurations.find((x) => x.id === 'full')!;
    expect(full.outcome).toBe('fail');
    expect(full.tests.find((t) => t.kind === 'P2P')).toMatchObject({ status: 'failed' });
  });

  it('useResultCache: false re-runs every configuration; the cache still serves the next run', async () => {
    const fresh = await docker.evaluate(c.input, { useResultCache: false });
    expect(fresh.configurations.map((x) => x.cached)).toEqual([false, false]);
    expect(fresh.verdict).toEqual(first.verdict);
    const cached = await docker.evaluate(c.input);
    expect(cached.configurations.map((x) => x.cached)).toEqual([true, true]);
  });
});
