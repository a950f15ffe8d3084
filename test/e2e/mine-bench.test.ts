/**
 * End to end: a generated two-repository history (a library and its consumer, linked by a
 * trailer naming the library's issue) → `tandem mine git` over HTTP → `tandem bench validate` in
 * Docker → one valid instance: gold resolved and jointly necessary, F2P derived from the tests the
 * mined test patch carries.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchInstanceSchema } from '../../src/core/bench-instance.schema.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { runCli } from '../helpers/example-cases.ts';
import { commitOn, createRepo, makeTempDir } from '../helpers/git-fixtures.ts';
import { type LibAppRemotes, remotesOf, serveLibApp } from '../helpers/mine-lib-app.ts';

const docker = dockerSuite('mine-bench');
let root: string;
let remotes: LibAppRemotes;

beforeAll(async () => {
  root = docker.track(await makeTempDir('tandem-mine-bench-'));
  const base = { 'src/index.js': 'export const version = 1;\n', 'README.md': 'readme\n' };
  const lib = await createRepo(remotesOf(root), 'lib', base);
  const app = await createRepo(remotesOf(root), 'app', base);
  await commitOn(
    lib,
    'main',
    {
      'src/money.js': 'export function money(n) {\n  return `$${n.toFixed(2)}`;\n}\n',
      'test/money.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { money } from '../src/money.js';\ntest('money formats cents', () => assert.strictEqual(money(3), '$3.00'));\n",
    },
    'Add money formatting\n\nFixes #12',
  );
  await commitOn(
    app,
    'main',
    {
      'src/checkout.js':
        "import { money } from '../../lib/src/money.js';\nexport const total = (xs) => money(xs.reduce((a, b) => a + b, 0));\n",
      'test/checkout.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { total } from '../src/checkout.js';\ntest('checkout totals in money', () => assert.strictEqual(total([1, 2]), '$3.00'));\n",
    },
    'Checkout shows totals as money\n\nRelated-to: acme/lib#12',
  );
  remotes = await serveLibApp(root);
}, 120_000);

afterAll(async () => {
  await remotes?.server.close();
});

describe('mine → bench validate', () => {
  it('mines one candidate from git history and bench validate accepts it', async () => {
    const candidates = path.join(root, 'out', 'candidates.jsonl');
    const mined = await runCli([
      ...remotes.mineArgs({ since: '2020-01-01', out: candidates, appRef: 'main' }),
      '--suite-template',
      remotes.template,
      '--cache-dir',
      docker.cacheDir,
    ]);
    expect(mined.stderr).toContain('1 candidate(s)');
    expect(mined.code).toBe(0);
    const [line] = (await readFile(candidates, 'utf8')).trim().split('\n');
    const instance = benchInstanceSchema.parse(JSON.parse(line!));
    expect(instance.repos.map((r) => r.repo)).toEqual(['acme/lib', 'acme/app']);

    const validated = path.join(root, 'out', 'validated.jsonl');
    const result = await runCli([
      'bench',
      'validate',
      candidates,
      '--out',
      validated,
      '--runs',
      '1',
      '--quiet',
      ...docker.cliFlags(),
    ]);
    expect(result.stdout + result.stderr).toContain('1 valid');
    expect(result.code).toBe(0);
    const accepted = benchInstanceSchema.parse(JSON.parse((await readFile(validated, 'utf8')).trim()));
    expect(accepted.instance_id).toBe(instance.instance_id);
    expect(accepted.FAIL_TO_PASS?.length).toBeGreaterThanOrEqual(2);
  });
});
