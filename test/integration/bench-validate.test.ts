/**
 * `tandem bench validate` on real git and Docker: a valid jointly necessary gold (lists
 * derived), a gold that passes with one repository alone, no F2P test, a test patch or a gold
 * patch that does not apply, prepare failing, and a flaky test (dropped; rejected with --strict).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { loadInstances } from '../../src/bench/instances-file.ts';
import { validateInstances } from '../../src/bench/validate-instances.ts';
import { type BenchFixture, benchFixture, benchSuite } from '../helpers/bench-fixtures.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { runCli, shellGroup, tapScript } from '../helpers/example-cases.ts';
import { makeTempDir, writeFiles } from '../helpers/git-fixtures.ts';

const docker = dockerSuite('bench-validate');
let fx: BenchFixture;
let cli: { code: number | null; stdout: string; stderr: string };
let valid: Array<Record<string, unknown>>;
let rejected: Array<{
  instance_id: string;
  reasons: Array<{ kind: string; message: string; configuration?: { id: string } }>;
}>;

const readJsonl = async (file: string) =>
  (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const reasonsOf = (id: string) => rejected.find((r) => r.instance_id === id)?.reasons ?? [];

beforeAll(async () => {
  fx = await benchFixture(docker.track(await makeTempDir('tandem-bench-validate-')));
  await writeFiles(fx.root, {
    'evaluator/api-suite.yml': YAML.stringify(benchSuite({ tests: [benchSuite().tests![0]!] })),
    'evaluator/prepare-suite.yml': YAML.stringify(
      benchSuite({ prepare: { 'acme/api': { run: 'exit 7', outputs: ['deps'] } } }),
    ),
  });
  const base = await fx.instance();
  const [api, web] = base.repos as [NonNullable<typeof base.repos>[0], NonNullable<typeof base.repos>[1]];
  const instances = await fx.writeInstances('candidates.jsonl', [
    { ...base, instance_id: 'valid' },
    // An inline suite whose hidden files live in another folder than the instances file.
    { ...base, instance_id: 'valid-inline', suite: benchSuite(), suite_dir: 'evaluator' },
    { ...base, instance_id: 'one-side', suite: 'evaluator/api-suite.yml' },
    {
      ...base,
      instance_id: 'no-f2p',
      repos: [
        { ...api, patch: '' },
        { ...web, patch: '' },
      ],
    },
    {
      ...base,
      instance_id: 'bad-test-patch',
      repos: [{ ...api, test_patch: api.test_patch!.replace('-old', '-nope') }, web],
    },
    { ...base, instance_id: 'bad-gold', repos: [api, { ...web, patch: web.patch.replace('-old', '-nope') }] },
    { ...base, instance_id: 'prepare-fails', suite: 'evaluator/prepare-suite.yml' },
  ]);
  cli = await runCli([
    'bench',
    'validate',
    instances,
    '--out',
    path.join(fx.root, 'out', 'validated.jsonl'),
    '--runs',
    '2',
    '--cache-dir',
    docker.cacheDir,
    '--prepare-network',
    'host',
    '--jobs',
    '2',
    '--retries',
    '0',
  ]);
  valid = await readJsonl(path.join(fx.root, 'out', 'validated.jsonl'));
  rejected = await readJsonl(path.join(fx.root, 'out', 'validated.rejected.jsonl'));
}, 600_000);

describe('bench validate', () => {
  it('keeps the valid instance with derived F2P/P2P lists and reports counts', () => {
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/2 valid → .*validated\.jsonl; 5 rejected → .*rejected\.jsonl/);
    expect(valid.map((v) => v.instance_id)).toEqual(['valid', 'valid-inline']);
    expect(valid[0]).toMatchObject({
      FAIL_TO_PASS: ['api::::api emits an allowed new field', 'web::::web accepts the api field'],
      PASS_TO_PASS: ['web::::web keeps its readme'],
      metadata: { validation: { runs: 2, lists: 'derived', flaky: [] } },
    });
  });

  it('writes validated instances that load from their new folder (suite path rewritten)', async () => {
    const [loaded, inline] = await loadInstances(path.join(fx.root, 'out', 'validated.jsonl'));
    expect(loaded!.suite.name).toBe('acme-bench');
    expect(loaded!.instance.suite).toBe('../evaluator/suite.yml');
    // An inline suite keeps finding its hidden files: its folder is written beside it.
    expect(inline!.instance.suite_dir).toBe('../evaluator');
    expect(inline!.suiteDir).toBe(path.join(fx.root, 'evaluator'));
  });

  it('rejects a gold that passes with one repository alone, naming the configuration', () => {
    const reasons = reasonsOf('one-side');
    expect(reasons).toEqual([
      expect.objectContaining({
        kind: 'not-jointly-necessary',
        configuration: { id: 'api', applied: ['acme/api'] },
      }),
    ]);
    expect(reasons[0]!.message).toContain('configuration "api" (only acme/api) already passes');
  });

  it('rejects an instance without a FAIL_TO_PASS test', () => {
    expect(reasonsOf('no-f2p').map((r) => r.kind)).toContain('no-fail-to-pass');
  });

  it('rejects a test patch or a gold patch that does not apply', () => {
    expect(reasonsOf('bad-test-patch')).toEqual([
      expect.objectContaining({
        kind: 'test-patch-does-not-apply',
        message: expect.stringContaining('acme/api'),
      }),
    ]);
    expect(reasonsOf('bad-gold')).toEqual([
      expect.objectContaining({ kind: 'patch-does-not-apply', message: expect.stringContaining('acme/web') }),
    ]);
  });

  it('never quotes the test patch in a reason', () => {
    expect(JSON.stringify(rejected)).not.toContain('amount|total');
  });

  it('rejects an instance whose prepare fails', () => {
    expect(reasonsOf('prepare-fails').map((r) => r.kind)).toEqual(['prepare-failed']);
  });
});

describe('bench validate: a flaky test', () => {
  it('is dropped from the lists and recorded; --strict rejects the instance', async () => {
    await writeFiles(fx.root, {
      'evaluator/hidden/coin.sh': tapScript('coin.tap', [
        // A coin toss per run: 4 gold runs all agreeing has probability 1/8.
        { name: 'coin toss', cmd: 'test $(( $(od -An -N1 -tu1 /dev/urandom) % 2 )) -eq 0' },
      ]),
      'evaluator/coin-suite.yml': YAML.stringify(
        benchSuite({ tests: [...benchSuite().tests!, shellGroup('coin')] }),
      ),
    });
    const instances = await fx.writeInstances('coin.jsonl', [
      { ...(await fx.instance()), instance_id: 'coin', suite: 'evaluator/coin-suite.yml' },
    ]);
    const engine = {
      cacheDir: docker.cacheDir,
      useResultCache: false,
      sandbox: 'docker' as const,
      prepareNetwork: 'host',
    };
    let rows: Array<Record<string, unknown>> = [];
    // Bounded: five validations without a disagreement happen with probability 8^-5.
    for (let i = 0; i < 5; i++) {
      await validateInstances({
        instances,
        out: path.join(fx.root, 'coin', 'v.jsonl'),
        runs: 4,
        strict: false,
        jobs: 2,
        retries: 0,
        engine,
      });
      rows = await readJsonl(path.join(fx.root, 'coin', 'v.jsonl'));
      const flaky =
        (rows[0]?.metadata as { validation: { flaky: unknown[] } } | undefined)?.validation.flaky ?? [];
      if (flaky.length) break;
    }
    expect(rows[0]).toMatchObject({
      FAIL_TO_PASS: ['api::::api emits an allowed new field', 'web::::web accepts the api field'],
      PASS_TO_PASS: ['web::::web keeps its readme'],
      metadata: { validation: { flaky: [{ id: 'coin::::coin toss', statuses: expect.any(Array) }] } },
    });

    let strict: Awaited<ReturnType<typeof readJsonl>> = [];
    for (let i = 0; i < 5 && !strict.length; i++) {
      await validateInstances({
        instances,
        out: path.join(fx.root, 'strict', 'v.jsonl'),
        runs: 4,
        strict: true,
        jobs: 2,
        retries: 0,
        engine,
      });
      strict = await readJsonl(path.join(fx.root, 'strict', 'v.rejected.jsonl'));
    }
    expect(strict[0].reasons).toEqual([
      expect.objectContaining({ kind: 'flaky', message: expect.stringContaining('coin::::coin toss') }),
    ]);
  }, 600_000);
});

describe('bench derive single-side', () => {
  it('makes one instance per repository with the others at gold, each valid on its own', async () => {
    const instances = await fx.writeInstances('two-sided.jsonl', [await fx.instance()]);
    const out = path.join(fx.root, 'single', 'single.jsonl');
    const derive = await runCli([
      'bench',
      'derive',
      'single-side',
      instances,
      '--out',
      out,
      '--cache-dir',
      docker.cacheDir,
    ]);
    expect(derive.code).toBe(0);
    const rows = await readJsonl(out);
    expect(
      rows.map((r) => [
        r.instance_id,
        r.repos.map((x: { repo: string }) => x.repo),
        r.context.map((x: { repo: string }) => x.repo),
      ]),
    ).toEqual([
      ['acme-1.single-api', ['acme/api'], ['acme/web']],
      ['acme-1.single-web', ['acme/web'], ['acme/api']],
    ]);
    const result = await validateInstances({
      instances: out,
      out: path.join(fx.root, 'single', 'validated.jsonl'),
      runs: 1,
      strict: false,
      jobs: 2,
      retries: 0,
      engine: { cacheDir: docker.cacheDir, useResultCache: true, sandbox: 'docker', prepareNetwork: 'host' },
    });
    expect(result).toMatchObject({ accepted: 2, rejected: 0 });
    const valid = await readJsonl(path.join(fx.root, 'single', 'validated.jsonl'));
    // With web already at gold, web's check fails on base only because of api: both are F2P of api.
    expect(valid[0].FAIL_TO_PASS).toEqual([
      'api::::api emits an allowed new field',
      'web::::web accepts the api field',
    ]);
  }, 600_000);
});
