/**
 * `tandem bench run` on real git and Docker: predictions of every kind against a generated
 * two-repository instance (resolves, misses a repository, regresses a P2P test, disagrees across
 * repositories, empty, not applying, one joint `model_patch`, edits to a test file the test patch
 * overwrites), the diagnosis of each, a SWE-bench row as a one-repository instance, and a run
 * killed halfway then resumed.
 */
import { cp, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { combineRuns } from '../../src/bench/combine-runs.ts';
import { runBench } from '../../src/bench/run-bench.ts';
import {
  type InstanceReportEntry,
  instanceReportSchema,
  runSummarySchema,
} from '../../src/core/bench-report.schema.ts';
import { API, type BenchFixture, benchFixture, benchSuite, GOLD, WEB } from '../helpers/bench-fixtures.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { startCli } from '../helpers/example-cases.ts';
import { makeTempDir, writeFiles } from '../helpers/git-fixtures.ts';

const docker = dockerSuite('bench-run');
let fx: BenchFixture;
let instances: string;
let predictions: string;
const runsDir = () => path.join(fx.root, 'runs');
const MODELS = [
  'resolves',
  'misses-web',
  'regresses',
  'inconsistent',
  'empty',
  'not-applying',
  'joint-patch',
  'edits-test-file',
  'cheats-test-file',
] as const;

async function entry(runId: string, model: string, id = 'acme-1'): Promise<InstanceReportEntry> {
  const file = path.join(runsDir(), runId, model, id, 'report.json');
  const report = instanceReportSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  return report[id]!;
}

beforeAll(async () => {
  fx = await benchFixture(docker.track(await makeTempDir('tandem-bench-run-')));
  const swe = {
    instance_id: 'api-only',
    repo: API,
    url: fx.repos.api.url,
    base_commit: fx.repos.api.sha,
    patch: await fx.diff('api', GOLD.api),
    test_patch: await fx.diff('api', { 'tests/allowed': 'amount|total\n' }),
    problem_statement: 'api alone',
    hints_text: '',
    version: '1.0',
    suite: 'evaluator/api-suite.yml',
  };
  await writeFiles(fx.root, {
    'evaluator/api-suite.yml': YAML.stringify(benchSuite({ tests: [benchSuite().tests![0]!] })),
  });
  instances = await fx.writeInstances('instances.jsonl', [await fx.instance(), swe]);
  const d = fx.diff;
  const rows: Record<(typeof MODELS)[number], Record<string, unknown>> = {
    resolves: {
      model_patches: {
        [API]: await d('api', { FIELD: 'total\n' }),
        [WEB]: await d('web', { ACCEPTS: 'total amount\n' }),
      },
    },
    'misses-web': { model_patches: { [API]: await d('api', GOLD.api) } },
    regresses: {
      model_patches: {
        [API]: await d('api', GOLD.api),
        [WEB]: await d('web', { ...GOLD.web, README: null }),
      },
    },
    inconsistent: {
      model_patches: {
        [API]: await d('api', { FIELD: 'total\n' }),
        [WEB]: await d('web', { ACCEPTS: 'amount\n' }),
      },
    },
    empty: { model_patch: '' },
    'not-applying': {
      model_patches: {
        [API]: (await d('api', GOLD.api)).replace('-old', '-something else'),
        [WEB]: await d('web', GOLD.web),
      },
    },
    'joint-patch': { model_patch: await fx.jointDiff(GOLD) },
    // The agent rewrote the test file the test patch changes: the overlay puts the test patch's back.
    'edits-test-file': {
      model_patches: {
        [API]: await d('api', { ...GOLD.api, 'tests/allowed': 'anything\n' }),
        [WEB]: await d('web', GOLD.web),
      },
    },
    // Edits that would pass only if the agent's version of the test file survived.
    'cheats-test-file': {
      model_patches: {
        [API]: await d('api', { FIELD: 'cheat\n', 'tests/allowed': 'cheat\n' }),
        [WEB]: await d('web', { ACCEPTS: 'cheat\n' }),
      },
    },
  };
  predictions = await fx.writePredictions(
    'predictions.jsonl',
    Object.entries(rows)
      .map(([model, p]) => JSON.stringify({ instance_id: 'acme-1', model_name_or_path: model, ...p }))
      .join('\n'),
  );
  await runBench({
    instances,
    predictions,
    runId: 'r1',
    runsDir: runsDir(),
    jobs: 2,
    matrix: 'none',
    diagnose: true,
    retries: 1,
    engine: { cacheDir: docker.cacheDir, useResultCache: true, sandbox: 'docker', prepareNetwork: 'host' },
  });
}, 600_000);

describe('bench run: SWE-bench fields per prediction', () => {
  it('a prediction that resolves (different text from gold)', async () => {
    const e = await entry('r1', 'resolves');
    expect(e).toMatchObject({
      patch_is_None: false,
      patch_exists: true,
      patch_successfully_applied: true,
      resolved: true,
    });
    expect(e.tests_status.FAIL_TO_PASS.failure).toEqual([]);
    expect(e.tests_status.FAIL_TO_PASS.success).toHaveLength(2);
    expect(e.tandem.fix_rate).toBe(1);
    expect(e.tandem.diagnosis).toBeUndefined();
  });

  it('one that misses a repository: unresolved, diagnosed as missed repository', async () => {
    const e = await entry('r1', 'misses-web');
    expect(e.resolved).toBe(false);
    expect(e.tests_status.FAIL_TO_PASS.failure).toEqual(['web::::web accepts the api field']);
    expect(e.tandem.diagnosis?.labels).toEqual([{ kind: 'missed-repository', repo: WEB }]);
    expect(e.tandem.repositories.find((r) => r.repo === API)?.success).toBe(true);
    expect(e.tandem.repositories.find((r) => r.repo === WEB)?.success).toBe(false);
  });

  it('one that regresses a P2P test: fix rate 0, diagnosed as regression', async () => {
    const e = await entry('r1', 'regresses');
    expect(e.resolved).toBe(false);
    expect(e.tests_status.PASS_TO_PASS.failure).toEqual(['web::::web keeps its readme']);
    expect(e.tandem.fix_rate).toBe(0);
    expect(e.tandem.diagnosis?.labels).toContainEqual({ kind: 'regression' });
    expect(e.tandem.diagnosis?.labels).toContainEqual({ kind: 'wrong-in-repo', repo: WEB });
  });

  it('a cross-repository inconsistency: every swap passes, the joint prediction fails', async () => {
    const e = await entry('r1', 'inconsistent');
    expect(e.resolved).toBe(false);
    expect(e.tandem.diagnosis).toEqual({
      labels: [{ kind: 'cross-repo-inconsistency' }],
      swaps: [
        { repo: API, outcome: 'pass' },
        { repo: WEB, outcome: 'pass' },
      ],
    });
  });

  it('an empty patch is an empty-patch instance, never run', async () => {
    const e = await entry('r1', 'empty');
    expect(e).toMatchObject({ patch_exists: false, patch_successfully_applied: false, resolved: false });
    expect(e.tandem.outcome).toBe('empty-patch');
    expect(e.tandem.report).toBeUndefined();
  });

  it('a patch that does not apply is unresolved with patch_successfully_applied false', async () => {
    const e = await entry('r1', 'not-applying');
    expect(e).toMatchObject({ patch_exists: true, patch_successfully_applied: false, resolved: false });
    expect(e.tandem.outcome).toBe('unresolved');
    expect(e.tandem.apply.find((a) => a.repo === API)).toMatchObject({ applied: false, files: ['FIELD'] });
    expect(e.tandem.diagnosis?.labels).toEqual([{ kind: 'wrong-in-repo', repo: API }]);
  });

  it('a combined model_patch is split per repository and resolves', async () => {
    const e = await entry('r1', 'joint-patch');
    expect(e.resolved).toBe(true);
    const dir = path.join(runsDir(), 'r1', 'joint-patch', 'acme-1');
    expect(await readFile(path.join(dir, 'patch.api.diff'), 'utf8')).toMatch(/^diff --git a\/FIELD b\/FIELD/);
    expect(await readFile(path.join(dir, 'patch.web.diff'), 'utf8')).toMatch(
      /^diff --git a\/ACCEPTS b\/ACCEPTS/,
    );
  });

  it('agent edits to a test file neither break the test patch nor survive it', async () => {
    expect((await entry('r1', 'edits-test-file')).resolved).toBe(true);
    const cheat = await entry('r1', 'cheats-test-file');
    expect(cheat.resolved).toBe(false);
    expect(cheat.tests_status.FAIL_TO_PASS.failure).toContain('api::::api emits an allowed new field');
  });

  it('writes each group output and never the test patch', async () => {
    const dir = path.join(runsDir(), 'r1', 'resolves', 'acme-1');
    expect((await readdir(path.join(dir, 'outputs', 'full'))).sort()).toEqual(['api.txt', 'web.txt']);
    const all: string[] = [];
    const walk = async (d: string): Promise<void> => {
      for (const e of await readdir(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) await walk(p);
        else all.push(await readFile(p, 'utf8'));
      }
    };
    await walk(path.join(runsDir(), 'r1'));
    expect(all.some((t) => t.includes('amount|total'))).toBe(false);
  });

  it('writes a SWE-bench-shaped summary per model with the papers’ metrics', async () => {
    const file = path.join(runsDir(), 'r1', 'misses-web.r1.json');
    const s = runSummarySchema.parse(JSON.parse(await readFile(file, 'utf8')));
    expect(s).toMatchObject({
      total_instances: 2,
      submitted_instances: 1,
      completed_instances: 1,
      resolved_instances: 0,
      unresolved_instances: 1,
      empty_patch_instances: 0,
      error_instances: 0,
      unresolved_ids: ['acme-1'],
    });
    expect(s.metrics).toMatchObject({
      case_success: 0,
      repository_success: 0.5,
      f2p_complete_repositories: 0.5,
      p2p_preserved_repositories: 1,
      fix_rate: 0.5,
      patch_apply_rate: 1,
      by_repo_count: { '2': { total: 1, resolved: 0, rate: 0 } },
      by_language_count: { '1': { total: 1, resolved: 0, rate: 0 } },
      diagnosis: { 'missed-repository': 1 },
    });
    const empty = runSummarySchema.parse(
      JSON.parse(await readFile(path.join(runsDir(), 'r1', 'empty.r1.json'), 'utf8')),
    );
    expect(empty).toMatchObject({
      empty_patch_instances: 1,
      completed_instances: 0,
      empty_patch_ids: ['acme-1'],
    });
  });
});

describe('bench run: gold over a SWE-bench row and a multi-repository instance', () => {
  it('scores the gold patches of both; the SWE-bench row runs as a one-repository instance', async () => {
    const { summaries } = await runBench({
      instances,
      predictions: 'gold',
      runId: 'gold',
      runsDir: runsDir(),
      jobs: 2,
      matrix: 'leave-one-out',
      diagnose: false,
      retries: 0,
      engine: { cacheDir: docker.cacheDir, useResultCache: true, sandbox: 'docker', prepareNetwork: 'host' },
    });
    expect(summaries[0]!.summary).toMatchObject({ resolved_ids: ['acme-1', 'api-only'], error_instances: 0 });
    const one = await entry('gold', 'gold', 'api-only');
    expect(one.tandem.repo_count).toBe(1);
    expect(one.tandem.report?.configurations.map((c) => [c.id, c.outcome])).toEqual([
      ['base', 'fail'],
      ['full', 'pass'],
    ]);
    const two = await entry('gold', 'gold');
    expect(two.tandem.report?.verdict.jointlyNecessary).toBe(true);
  });
});

describe('bench run: killed halfway, resumed', () => {
  it('skips finished predictions on the rerun and completes the summary', async () => {
    const args = [
      'bench',
      'run',
      '--instances',
      instances,
      '--predictions',
      predictions,
      '--run-id',
      'resume',
      '--runs-dir',
      runsDir(),
      '--jobs',
      '1',
      '--cache-dir',
      docker.cacheDir,
      '--prepare-network',
      'host',
    ];
    const first = startCli(args);
    // Killed as soon as the first prediction is written (the CLI prints one line per prediction).
    await new Promise<void>((resolve) => {
      first.child.stderr!.on('data', (d: Buffer) => {
        if (d.toString().includes('[1/')) resolve();
      });
    });
    first.child.kill('SIGTERM');
    const killed = await first.done;
    expect(killed.code).toBe(130);
    const finished = async () => {
      const out: string[] = [];
      for (const m of MODELS) {
        try {
          await stat(path.join(runsDir(), 'resume', m, 'acme-1', 'report.json'));
          out.push(m);
        } catch {}
      }
      return out;
    };
    const before = await finished();
    expect(before.length).toBeGreaterThan(0);
    expect(before.length).toBeLessThan(MODELS.length);
    const mtimes = await Promise.all(
      before.map(
        async (m) => (await stat(path.join(runsDir(), 'resume', m, 'acme-1', 'report.json'))).mtimeMs,
      ),
    );

    const second = await startCli(args).done;
    // Complete, but the predictions file has none for the SWE-bench row: exit 1, naming it.
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('no prediction for 1 instance(s): api-only');
    expect(second.stderr).toContain(`resuming: ${before.length} finished prediction(s) skipped`);
    expect(await finished()).toEqual([...MODELS]);
    const after = await Promise.all(
      before.map(
        async (m) => (await stat(path.join(runsDir(), 'resume', m, 'acme-1', 'report.json'))).mtimeMs,
      ),
    );
    expect(after).toEqual(mtimes);
    expect(second.stdout).toMatch(/resolves: 1\/2 resolved/);
  });
});

describe('bench run: sharded and merged', () => {
  it('two shards merged give the summaries of the unsharded run', async () => {
    for (const index of [1, 2]) {
      await runBench({
        instances,
        predictions,
        runId: 'r1',
        runsDir: path.join(fx.root, `shard${index}`),
        jobs: 2,
        matrix: 'none',
        diagnose: true,
        shard: { index, count: 2 },
        retries: 0,
        engine: {
          cacheDir: docker.cacheDir,
          useResultCache: true,
          sandbox: 'docker',
          prepareNetwork: 'host',
        },
      });
    }
    const shard1 = await readdir(path.join(fx.root, 'shard1', 'r1'));
    const shard2 = await readdir(path.join(fx.root, 'shard2', 'r1'));
    // Each shard evaluated only its share (folders of the models it ran).
    const folders = (names: string[]) => names.filter((n) => !n.endsWith('.json'));
    expect(folders(shard1).length + folders(shard2).length).toBe(MODELS.length);
    const merged = await combineRuns(
      // Folder names as a CI artifact download gives them: the run id is read from the summaries.
      await Promise.all(
        [1, 2].map(async (k) => {
          const to = path.join(fx.root, 'artifacts', `bench-shard-${k}`);
          await cp(path.join(fx.root, `shard${k}`, 'r1'), to, { recursive: true });
          return to;
        }),
      ),
      path.join(fx.root, 'merged', 'r1'),
      instances,
    );
    expect(merged.map((m) => m.summary.model_name_or_path).sort()).toEqual([...MODELS].sort());
    for (const { summary } of merged) {
      const whole = runSummarySchema.parse(
        JSON.parse(
          await readFile(path.join(runsDir(), 'r1', `${summary.model_name_or_path}.r1.json`), 'utf8'),
        ),
      );
      expect(summary).toEqual(whole);
    }
  });
});
