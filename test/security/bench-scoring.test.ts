/**
 * Attacks on benchmark scoring (issue 18, items 5 and 9), through the real run store, summary and
 * leaderboard. No container runs: every prediction here is empty or a stored entry.
 *
 * - A model that turns its failures into infrastructure errors must not outscore an honest model
 *   with the same solved set: an error is not resolved in every metric, as SWE-bench counts it.
 * - A model named `..` must not write or delete outside the run folder.
 * - The Markdown leaderboard shows model names and instance ids as text: no raw HTML, no link.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { loadRuns } from '../../src/bench/load-runs.ts';
import { runBench } from '../../src/bench/run-bench.ts';
import { RunStore } from '../../src/bench/run-store.ts';
import type { InstanceReportEntry, PredictionOutcome } from '../../src/core/bench-report.schema.ts';
import { summarizeRun } from '../../src/core/bench-summary.ts';
import { renderBenchMarkdown } from '../../src/report/bench-render.ts';
import { benchView } from '../../src/report/bench-view.ts';
import { SANDBOX_IMAGE } from '../helpers/example-cases.ts';
import { makeTempDir } from '../helpers/git-fixtures.ts';

function entry(model: string, id: string, outcome: PredictionOutcome): InstanceReportEntry {
  const resolved = outcome === 'resolved';
  const repo = (ok: boolean) => ({
    repo: 'acme/api',
    f2p: { passed: ok ? 1 : 0, total: ok ? 1 : 0 },
    p2p: { passed: 0, total: 0 },
    f2pComplete: ok,
    p2pPreserved: ok,
    success: ok,
  });
  return {
    patch_is_None: false,
    patch_exists: true,
    patch_successfully_applied: true,
    resolved,
    tests_status: {
      FAIL_TO_PASS: { success: resolved ? ['t'] : [], failure: resolved ? [] : ['t'] },
      PASS_TO_PASS: { success: [], failure: [] },
      FAIL_TO_FAIL: { success: [], failure: [] },
      PASS_TO_FAIL: { success: [], failure: [] },
    },
    tandem: {
      instance_id: id,
      model_name_or_path: model,
      outcome,
      repo_count: 1,
      languages: ['js'],
      apply: [{ repo: 'acme/api', changed: true, applied: true }],
      test_patch_injected: true,
      f2p: { passed: resolved ? 1 : 0, total: 1 },
      p2p: { passed: 0, total: 0 },
      fix_rate: resolved ? 1 : 0,
      // What an errored prediction leaves: nothing graded (the run store fills the tested repos).
      repositories: outcome === 'error' ? [repo(false)] : [repo(resolved)],
      errors: outcome === 'error' ? ['engine: the container stopped'] : [],
      attempts: 1,
      duration_ms: 1,
    },
  };
}

describe('item 5: an error is not a way out of a failure', () => {
  it('a model that forces errors on its failures scores exactly like the honest one', async () => {
    const dir = await makeTempDir('tandem-sec-bench-errors-');
    const store = new RunStore(path.join(dir, 'r'), 'r');
    const ids = ['i-1', 'i-2'];
    const plan = { honest: ['resolved', 'unresolved'], forcer: ['resolved', 'error'] } as const;
    for (const [model, outcomes] of Object.entries(plan)) {
      for (const [k, outcome] of outcomes.entries())
        await store.write(entry(model, ids[k]!, outcome), {}, []);
      const summary = summarizeRun(await store.entries(model), {
        instanceIds: ids,
        submittedIds: ids,
        model,
        runId: 'r',
      });
      await store.writeSummary(summary);
    }
    const [honest, forcer] = (await loadRuns([store.dir])).sort((a, b) =>
      a.summary.model_name_or_path === 'honest' ? -1 : b.summary.model_name_or_path === 'honest' ? 1 : 0,
    );
    expect(forcer!.summary.metrics).toEqual(honest!.summary.metrics);
    expect(forcer!.summary.metrics.fix_rate).toBe(0.5);
    expect(forcer!.summary.metrics.repository_success).toBe(0.5);
    expect(forcer!.summary.metrics.by_repo_count).toEqual({ '1': { total: 2, resolved: 1, rate: 0.5 } });
    // The error count stands beside the metrics, in the summary and on the leaderboard.
    expect(forcer!.summary.error_instances).toBe(1);
    const board = benchView([honest!, forcer!]).leaderboard;
    const row = (m: string) => board.find((b) => b.model === m)!;
    const { errors, model: _f, ...forcerRates } = row('forcer');
    const { errors: none, model: _h, ...honestRates } = row('honest');
    expect(forcerRates).toEqual(honestRates);
    expect([errors, none]).toEqual([1, 0]);
  });
});

async function emptyPredictionRun(models: string[], instanceId = 'acme-1') {
  const root = await makeTempDir('tandem-sec-bench-paths-');
  await mkdir(path.join(root, 'evaluator'), { recursive: true });
  await writeFile(
    path.join(root, 'evaluator', 'suite.yml'),
    YAML.stringify({
      name: 's',
      image: SANDBOX_IMAGE,
      tests: [{ name: 'api', run: 'true', results: { format: 'tap', path: 'api.tap' } }],
    }),
  );
  const instances = path.join(root, 'instances.jsonl');
  await writeFile(
    instances,
    `${JSON.stringify({
      instance_id: instanceId,
      repos: [
        { repo: 'acme/api', url: 'https://example.invalid/acme/api.git', base_commit: 'abc', patch: '' },
      ],
      suite: 'evaluator/suite.yml',
    })}\n`,
  );
  const predictions = path.join(root, 'predictions.jsonl');
  await writeFile(
    predictions,
    models
      .map((m) => JSON.stringify({ instance_id: instanceId, model_name_or_path: m, model_patch: '' }))
      .join('\n'),
  );
  const runsDir = path.join(root, 'runs');
  return {
    root,
    runsDir,
    run: () =>
      runBench({
        instances,
        predictions,
        runId: 'r',
        runsDir,
        jobs: 1,
        matrix: 'none',
        diagnose: false,
        retries: 0,
        engine: {
          cacheDir: path.join(root, 'cache'),
          sandbox: 'docker',
          useResultCache: true,
          prepareNetwork: 'host',
        },
      }),
  };
}

describe('item 9: model names and instance ids are safe path segments', () => {
  it('a model named ".." writes inside the run folder and deletes nothing beside it', async () => {
    const fx = await emptyPredictionRun(['..']);
    // What the attack would hit: <runs>/acme-1 (the run folder's parent + the instance id).
    const victim = path.join(fx.runsDir, 'acme-1');
    await mkdir(victim, { recursive: true });
    await writeFile(path.join(victim, 'keep.txt'), 'someone else’s results\n');
    const { summaries } = await fx.run();
    expect(await readFile(path.join(victim, 'keep.txt'), 'utf8')).toBe('someone else’s results\n');
    expect(await readdir(victim)).toEqual(['keep.txt']);
    expect(await readdir(fx.runsDir)).toEqual(['acme-1', 'r']);
    const inside = await readdir(path.join(fx.runsDir, 'r'));
    expect(inside.every((n) => !n.startsWith('.'))).toBe(true);
    expect(summaries[0]!.summary).toMatchObject({ model_name_or_path: '..', empty_patch_ids: ['acme-1'] });
    expect(path.dirname(summaries[0]!.file)).toBe(path.join(fx.runsDir, 'r'));
  });

  it('two model names that would share a folder are refused, naming both', async () => {
    const fx = await emptyPredictionRun(['org/m', 'org__m']);
    await expect(fx.run()).rejects.toThrow(/"org\/m" and "org__m" would share the run folder/);
  });

  it('the Markdown leaderboard renders names as text: no raw HTML, no javascript: link', async () => {
    const evil = ['<img src=x onerror=alert(1)>', '[click me](javascript:alert(1))', '<javascript:alert(2)>'];
    const fx = await emptyPredictionRun(evil);
    await fx.run();
    const md = renderBenchMarkdown(benchView(await loadRuns([path.join(fx.runsDir, 'r')])));
    // Rendered the way a permissive viewer would: raw HTML on, every link scheme allowed.
    const viewer = new MarkdownIt({ html: true, linkify: true });
    viewer.validateLink = () => true;
    const html = viewer.render(md);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('[click me](javascript:alert(1))');
  });
});
