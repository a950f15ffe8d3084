import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateExample } from '../../examples/checkout/generate.ts';
import { removeTempDir } from '../helpers/git-fixtures.ts';
import { type ActionRun, errors, outcomes, prepareRunner, readReport, runAction } from './action-harness.ts';

let dir: string;
let workspace: string;
let runnerDir: string;
let remotes: string;

const run = (inputs: Record<string, string>, cache: string): Promise<ActionRun> =>
  runAction({ workspace, runnerDir, inputs, env: { TANDEM_CACHE_DIR: path.join(dir, 'cache', cache) } });

beforeAll(async () => {
  ({ dir, workspace, runnerDir } = await prepareRunner('tandem-action-case-'));
  // The example writes remotes/, evaluator/ (suite + hidden tests) and case.yml under one folder:
  // that folder plays the evaluator repository checkout.
  generateExample(workspace);
  remotes = path.join(workspace, 'remotes');
  const target = (name: string, url = path.join(remotes, `${name}.git`)) =>
    `  - { repo: acme/${name}, url: ${url}, base: main, head: multi-currency }\n`;
  const writeCase = (file: string, name: string, rest: string) =>
    writeFileSync(path.join(workspace, file), `name: ${name}\nsuite: evaluator/suite.yml\ntargets:\n${rest}`);
  // Only schema and api change; web stays at main, so its new test cannot pass.
  writeCase(
    'partial-case.yml',
    'acme-without-web',
    `${target('schema')}${target('api')}context:\n  - { repo: acme/web, url: ${path.join(remotes, 'web.git')}, ref: main }\n`,
  );
  writeCase(
    'broken-case.yml',
    'acme-missing-remote',
    target('schema') + target('api') + target('web', path.join(dir, 'nowhere.git')),
  );
}, 600_000);

afterAll(async () => {
  if (dir) await removeTempDir(dir);
});

describe('the Action on a case file', () => {
  let single: ActionRun;

  it('evaluates the whole matrix in one job: outputs, summary, report, exit 0', async () => {
    single = await run({ case: 'case.yml', matrix: 'full', reruns: '0' }, 'single');
    expect(single.code, single.stdout + single.stderr).toBe(0);
    expect(single.outputs.verdict).toBe('resolved');
    expect(single.outputs.resolved).toBe('true');
    expect(single.outputs.partial).toBe('false');
    expect(single.outputs['report-path']).toBe(path.join(workspace, 'tandem-report.json'));
    const report = readReport(single.outputs['report-path']!);
    expect(report.outcome).toBe('resolved');
    expect(report.verdict.jointlyNecessary).toBe(true);
    expect(report.configurations).toHaveLength(8);
    expect(report.partial).toBeUndefined();
    expect(single.summary).toMatch(/^✅ \*\*Resolved\*\* — /);
    expect(single.summary).toContain('- **Change:** acme-multi-currency');
    expect(single.summary).toContain('JSON report: `tandem-report.json`');
    expect(errors(single)).toEqual([]);
    // Progress reaches the log.
    expect(single.stdout).toMatch(/full: pass 6\/6/);
  });

  it('sharded (plan → 3 shards → merge) gives the verdict and outcomes of the single job', async () => {
    const plan = await run({ case: 'case.yml', matrix: 'full', plan: '3' }, 'plan');
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const shards = JSON.parse(plan.outputs.shards!) as string[];
    expect(shards).toEqual(['1/3', '2/3', '3/3']);
    expect(plan.summary).toContain('| 1/3 |');

    const partialDir = path.join(workspace, 'partials');
    const shardRuns = await Promise.all(
      shards.map((shard, k) =>
        // Each shard job starts from an empty cache, as on separate runners.
        run(
          { case: 'case.yml', matrix: 'full', shard, report: `partials/shard-${k + 1}.json` },
          `shard-${k}`,
        ),
      ),
    );
    for (const [k, s] of shardRuns.entries()) {
      expect(s.code, s.stdout + s.stderr).toBe(0);
      expect(s.outputs.partial).toBe('true');
      expect(s.outputs.verdict).toBeUndefined();
      expect(s.outputs['report-path']).toBe(path.join(partialDir, `shard-${k + 1}.json`));
      expect(readReport(s.outputs['report-path']!).partial?.shard).toBe(shards[k]);
      expect(s.summary).toContain(`Partial report (shard ${shards[k]})`);
    }

    const merged = await run({ merge: 'partials/*.json', report: 'merged.json' }, 'merge');
    expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    expect(merged.outputs.verdict).toBe(single.outputs.verdict);
    expect(merged.outputs.resolved).toBe('true');
    const a = readReport(single.outputs['report-path']!);
    const b = readReport(merged.outputs['report-path']!);
    expect(b.partial).toBeUndefined();
    expect(b.verdict).toEqual(a.verdict);
    expect(outcomes(b)).toEqual(outcomes(a));
    expect(b.targets.map((t) => [t.base.sha, t.head?.sha])).toEqual(
      a.targets.map((t) => [t.base.sha, t.head?.sha]),
    );
    expect(merged.summary).toMatch(/^✅ \*\*Resolved\*\* — /);
  });

  it('merging without every shard is an infrastructure error, not a verdict', async () => {
    const dirOne = path.join(workspace, 'one-shard');
    mkdirSync(dirOne, { recursive: true });
    writeFileSync(
      path.join(dirOne, 'p.json'),
      readFileSync(path.join(workspace, 'partials', 'shard-1.json')),
    );
    const r = await run({ merge: 'one-shard/*.json' }, 'merge-missing');
    expect(r.code).toBe(1);
    expect(r.outputs.verdict).toBe('error');
    expect(errors(r).at(-1)?.message).toMatch(
      /infrastructure error, not a verdict on the code .*a shard is missing/,
    );
  });

  it('an unresolved change fails the step with annotations on the failing hidden tests', async () => {
    const r = await run({ case: 'partial-case.yml' }, 'partial');
    expect(r.code).toBe(1);
    expect(r.outputs.verdict).toBe('unresolved');
    expect(r.outputs.resolved).toBe('false');
    const errs = errors(r);
    const testAnnotation = errs.find((e) => e.properties.title === 'Tandem: F2P test failed');
    expect(testAnnotation?.message).toMatch(
      /^F2P test web::.*renders the currency is failed with every pull request applied/,
    );
    // The group has one hidden file: the annotation points at it in the evaluator repository.
    expect(testAnnotation?.properties.file).toBe('evaluator/hidden/web.test.js');
    expect(errs.at(-1)?.properties).toEqual({});
    expect(errs.at(-1)?.message).toMatch(/^Tandem: not resolved: 1 F2P\/P2P test\(s\) do not pass/);
    expect(r.summary).toMatch(/^❌ \*\*Not resolved\*\* — /);
  });

  it('an unreachable repository is an infrastructure error, said so', async () => {
    const r = await run({ case: 'broken-case.yml' }, 'broken');
    expect(r.code).toBe(1);
    expect(r.outputs.verdict).toBe('error');
    expect(readReport(r.outputs['report-path']!).outcome).toBe('error');
    const last = errors(r).at(-1)!;
    expect(last.message).toMatch(/^Tandem: infrastructure error, not a verdict on the code: /);
    const fetchError = errors(r).find((e) => e.properties.title === 'Tandem: infrastructure error (fetch)');
    expect(fetchError?.message).toMatch(
      /nowhere\.git.*\[acme\/web\]\. Infrastructure error, not a verdict on the code\.$/,
    );
    expect(r.summary).toContain('⚠️ **Infrastructure error** — not a verdict on the code');
  });

  it('bad inputs fail before anything runs, naming the input', async () => {
    const r = await run({ case: 'case.yml', shard: '4/3' }, 'bad');
    expect(r.code).toBe(1);
    expect(r.outputs.verdict).toBe('error');
    expect(errors(r)).toEqual([
      {
        command: 'error',
        properties: {},
        message:
          'Tandem: bad input, no verdict: input "shard": expected "i/n" with 1 <= i <= n (share i of n, e.g. "2/3")',
      },
    ]);
    const missing = await run({ case: 'nope.yml' }, 'bad');
    expect(errors(missing)[0]?.message).toMatch(/bad input, no verdict: no such file .*nope\.yml/);
  });
});
