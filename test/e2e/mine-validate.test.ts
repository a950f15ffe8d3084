/**
 * End to end: a generated two-repository history whose commits never mention each other (the
 * consumer bumps the library to the version it tagged and adapts to its renamed function) →
 * `tandem mine git --validate SUITE_TEMPLATE` over HTTP → candidates run by `tandem bench
 * validate` in Docker → the one jointly necessary instance kept in `--out`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchInstanceSchema } from '../../src/core/bench-instance.schema.ts';
import { gitOut } from '../../src/engine/git/git.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { runCli } from '../helpers/example-cases.ts';
import { commitOn, createRepo, makeTempDir, tag } from '../helpers/git-fixtures.ts';
import { type LibAppRemotes, remotesOf, serveLibApp } from '../helpers/mine-lib-app.ts';

const docker = dockerSuite('mine-validate');
let root: string;
let remotes: LibAppRemotes;
let since = '';

const pkg = (o: object) => `${JSON.stringify(o, null, 2)}\n`;
const t = (body: string) => `import { test } from 'node:test';\nimport assert from 'node:assert';\n${body}`;

beforeAll(async () => {
  root = docker.track(await makeTempDir('tandem-mine-validate-'));
  const lib = await createRepo(remotesOf(root), 'lib', {
    'package.json': pkg({ name: '@acme/lib', version: '1.0.0', type: 'module' }),
    'src/money.js': 'export function money(n) {\n  return String(n);\n}\n',
  });
  const app = await createRepo(remotesOf(root), 'app', {
    'package.json': pkg({ name: 'app', type: 'module', dependencies: { '@acme/lib': '^1.0.0' } }),
    'src/checkout.js':
      "import { money } from '../../lib/src/money.js';\nexport const total = (xs) => money(xs.reduce((a, b) => a + b, 0));\n",
  });
  // Read from after the initial commits: they are the releases of long ago.
  since = new Date(
    (Number(await gitOut(['log', '-1', '--format=%ct'], { cwd: app.work })) + 30) * 1000,
  ).toISOString();
  await commitOn(
    lib,
    'main',
    {
      'src/money.js': 'export function formatMoney(n) {\n  return `$${n.toFixed(2)}`;\n}\n',
      'test/money.test.js': t(
        "import { formatMoney } from '../src/money.js';\ntest('formats cents', () => assert.strictEqual(formatMoney(3), '$3.00'));\n",
      ),
    },
    'Money with cents',
  );
  const released = await commitOn(
    lib,
    'main',
    { 'package.json': pkg({ name: '@acme/lib', version: '2.0.0', type: 'module' }) },
    'Prepare the next version',
  );
  await tag(lib, 'v2.0.0', released);
  await commitOn(
    app,
    'main',
    {
      'package.json': pkg({ name: 'app', type: 'module', dependencies: { '@acme/lib': '^2.0.0' } }),
      'src/checkout.js':
        "import { formatMoney } from '../../lib/src/money.js';\nexport const total = (xs) => formatMoney(xs.reduce((a, b) => a + b, 0));\n",
      'test/checkout.test.js': t(
        "import { total } from '../src/checkout.js';\ntest('totals in money', () => assert.strictEqual(total([1, 2]), '$3.00'));\n",
      ),
    },
    'Checkout totals',
  );
  remotes = await serveLibApp(root);
}, 120_000);

afterAll(async () => {
  await remotes?.server.close();
});

describe('mine --validate', () => {
  it('keeps the candidate that runs jointly necessary', async () => {
    const out = path.join(root, 'out', 'candidates.jsonl');
    const result = await runCli([
      ...remotes.mineArgs({ since, out }),
      '--validate',
      remotes.template,
      '--validate-runs',
      '1',
      '--cache-dir',
      docker.cacheDir,
      '--jobs',
      '2',
    ]);
    expect(result.stderr).toContain('1 candidate(s)');
    expect(result.stderr).toContain('1 valid (jointly necessary)');
    expect(result.code).toBe(0);
    const mined = benchInstanceSchema.parse(
      JSON.parse((await readFile(out.replace(/\.jsonl$/, '.mined.jsonl'), 'utf8')).trim()),
    );
    const kept = benchInstanceSchema.parse(JSON.parse((await readFile(out, 'utf8')).trim()));
    expect(kept.instance_id).toBe(mined.instance_id);
    expect(kept.repos.map((r) => r.repo)).toEqual(['acme/lib', 'acme/app']);
    expect(kept.FAIL_TO_PASS?.length).toBeGreaterThanOrEqual(2);
  });
});
