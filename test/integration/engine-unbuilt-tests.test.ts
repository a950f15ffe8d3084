/**
 * Issue 31 (and issue 26 item 8) through the whole engine, real Docker, the project's Go and
 * Python images, the hardened sandbox: hidden tests that do not build, collect or load at base
 * fail base with the reason ("build failed", "collection error", "file failed to load"), and are
 * F2P once the full configuration runs them — no suite lists anywhere. Nothing here sets GOCACHE,
 * GOPATH or a pytest cache: the sandbox's defaults must do.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import { summaryTable } from '../../src/report/summary-table.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { REPO_ROOT, SANDBOX_IMAGE, shellCase } from '../helpers/example-cases.ts';

const docker = dockerSuite('engine-unbuilt-tests');

beforeAll(() => {
  execFileSync('bash', ['scripts/build-lang-images.sh'], { cwd: REPO_ROOT, stdio: 'inherit' });
}, 600_000);

const outcomes = (r: Report) => Object.fromEntries(r.configurations.map((c) => [c.id, c.outcome]));
const configuration = (r: Report, id: string) => r.configurations.find((c) => c.id === id)!;

/** `go test -json` of one repository's packages with a hidden test copied in; stdout only. */
const goGroup = (repo: string, hidden: string) => ({
  name: repo,
  repo: `acme/${repo}`,
  files: [`hidden/${hidden}`],
  run: `cp $TANDEM_HIDDEN/${hidden} ${repo}/ && cd ${repo} && go test -json ./... > $TANDEM_RESULTS/${repo}.json; s=$?; rm ${hidden}; exit $s`,
  results: { format: 'go-test-json' as const, path: `${repo}.json` },
  timeout: 240,
});

describe('one Go repository whose hidden test calls what the PR adds', () => {
  let report: Report;
  beforeAll(async () => {
    const c = await shellCase({
      name: 'go-one',
      repos: [
        {
          name: 'lib',
          base: {
            'go.mod': 'module example.com/acme/lib\n\ngo 1.19\n',
            'lib.go': 'package lib\n\n// Old is what base has.\nfunc Old() int { return 1 }\n',
          },
          head: {
            'lib.go':
              'package lib\n\n// Old is what base has.\nfunc Old() int { return 1 }\n\n// New is what the PR adds.\nfunc New() int { return 2 }\n',
          },
        },
      ],
      suite: { name: 'go-one-suite', image: 'tandem/sandbox:go', tests: [goGroup('lib', 'new_test.go')] },
      hidden: {
        'hidden/new_test.go': `package lib

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestNew(t *testing.T) {
	if New() != 2 {
		t.Fatal("New() != 2")
	}
}

// The sandbox gives go a writable build cache and GOPATH without the suite naming them.
func TestWritableGoFolders(t *testing.T) {
	out, err := exec.Command("go", "env", "GOCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range strings.Fields(string(out)) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "probe"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
`,
      },
    });
    docker.track(c.root);
    report = await docker.evaluate(c.input);
  }, 600_000);

  it('is resolved, base fails with "build failed", and the only target is not unnecessary', () => {
    expect(report.infraErrors).toEqual([]);
    expect(outcomes(report)).toEqual({ base: 'fail', full: 'pass' });
    const base = configuration(report, 'base');
    expect(base.groups.map((g) => [g.status, g.exitCode])).toEqual([['broken', 2]]);
    expect(base.groups[0]!.reason).toMatch(/^build failed \(example\.com\/acme\/lib\)/);
    expect(base.tests.map((t) => [t.id, t.kind, t.status])).toEqual([
      ['lib::example.com/acme/lib::TestNew', 'F2P', 'missing'],
      ['lib::example.com/acme/lib::TestWritableGoFolders', 'F2P', 'missing'],
    ]);
    expect(report.tests.seenOnlyWithPr).toBe(0);
    expect(report.verdict).toMatchObject({ resolved: true, unnecessary: [], fixRate: 1 });
    const text = summaryTable(report, { color: false });
    expect(text).toContain('Jointly necessary: n/a (one target)');
    expect(text).toContain('Unnecessary targets: none');
    expect(text).toMatch(/^base +B +fail +0\/2 .*build failed/m);
  });
});

describe('a Go producer renaming a function its Go consumer adapts to', () => {
  let report: Report;
  beforeAll(async () => {
    const c = await shellCase({
      name: 'go-rename',
      repos: [
        {
          name: 'lib',
          base: {
            'go.mod': 'module example.com/acme/lib\n\ngo 1.19\n',
            'lib.go':
              'package lib\n\n// Total sums its arguments.\nfunc Total(xs ...int) int {\n\tn := 0\n\tfor _, x := range xs {\n\t\tn += x\n\t}\n\treturn n\n}\n',
            // A package that builds in every state: its tests are P2P from the all-base run,
            // while its sibling's build failure is plain text among its events (go < 1.24).
            'util/util.go': 'package util\n\n// Double doubles.\nfunc Double(x int) int { return 2 * x }\n',
            'util/util_test.go':
              'package util\n\nimport "testing"\n\nfunc TestDouble(t *testing.T) {\n\tif Double(2) != 4 {\n\t\tt.Fatal("Double")\n\t}\n}\n',
          },
          head: {
            'lib.go':
              'package lib\n\n// Sum sums its arguments.\nfunc Sum(xs ...int) int {\n\tn := 0\n\tfor _, x := range xs {\n\t\tn += x\n\t}\n\treturn n\n}\n',
          },
        },
        {
          name: 'app',
          base: {
            'go.mod': 'module example.com/acme/app\n\ngo 1.19\n\nrequire example.com/acme/lib v0.0.0\n',
            'app.go':
              'package app\n\nimport "example.com/acme/lib"\n\n// Bill totals a bill.\nfunc Bill() int { return lib.Total(1, 2) }\n',
          },
          head: {
            'app.go':
              'package app\n\nimport "example.com/acme/lib"\n\n// Bill totals a bill.\nfunc Bill() int { return lib.Sum(1, 2) }\n',
          },
        },
      ],
      suite: {
        name: 'go-rename-suite',
        image: 'tandem/sandbox:go',
        wiring: [{ into: 'acme/app', repo: 'acme/lib', as: 'go', name: 'example.com/acme/lib' }],
        tests: [goGroup('lib', 'sum_test.go'), goGroup('app', 'bill_test.go')],
      },
      hidden: {
        'hidden/sum_test.go':
          'package lib\n\nimport "testing"\n\nfunc TestSum(t *testing.T) {\n\tif Sum(1, 2) != 3 {\n\t\tt.Fatal("Sum")\n\t}\n}\n',
        'hidden/bill_test.go':
          'package app\n\nimport "testing"\n\nfunc TestBill(t *testing.T) {\n\tif Bill() != 3 {\n\t\tt.Fatal("Bill")\n\t}\n}\n',
      },
    });
    docker.track(c.root);
    report = await docker.evaluate(c.input);
  }, 600_000);

  it('is jointly necessary: every configuration short of both fails to build something', () => {
    expect(report.infraErrors).toEqual([]);
    expect(outcomes(report)).toEqual({ base: 'fail', full: 'pass', app: 'fail', lib: 'fail' });
    expect(report.tests.failToPass).toEqual(['lib::example.com/acme/lib::TestSum']);
    expect([...report.tests.passToPass].sort()).toEqual([
      'app::example.com/acme/app::TestBill',
      'lib::example.com/acme/lib/util::TestDouble',
    ]);
    expect(report.tests.seenOnlyWithPr).toBe(0);
    const base = configuration(report, 'base');
    // lib's util package ran; its root package did not build: reported, with TestSum missing for that.
    expect(base.groups.map((g) => [g.name, g.status])).toEqual([
      ['lib', 'reported'],
      ['app', 'reported'],
    ]);
    expect(base.tests.find((t) => t.id.endsWith('TestSum'))?.reason).toMatch(
      /^build failed: the package did not build/,
    );
    // Only lib at head: app (still calling Total) does not build and ran no test.
    expect(configuration(report, 'lib').groups.map((g) => [g.name, g.status])).toEqual([
      ['lib', 'reported'],
      ['app', 'broken'],
    ]);
    expect(report.verdict).toMatchObject({
      resolved: true,
      jointlyNecessary: true,
      unnecessary: [],
      fixRate: 1,
    });
  });
});

describe('a Python change whose hidden test cannot import at base', () => {
  let report: Report;
  beforeAll(async () => {
    const c = await shellCase({
      name: 'py-import',
      repos: [
        {
          name: 'rates',
          base: { 'rates/__init__.py': 'RATES = {"EUR": 1.0}\n' },
          head: {
            'rates/__init__.py':
              'RATES = {"EUR": 1.0, "USD": 1.1}\n\ndef convert(amount, to):\n    return amount * RATES[to]\n',
          },
        },
      ],
      suite: {
        name: 'py-import-suite',
        image: 'tandem/sandbox:python3',
        tests: [
          {
            name: 'rates',
            repo: 'acme/rates',
            files: ['hidden/test_convert.py'],
            // No -p no:cacheprovider: pytest's cache must find a writable place by itself, under
            // HOME, leaving the checkout clean (exit 98 otherwise, seen in the group's exit code).
            run: 'cd rates && python3 -m pytest -q --junitxml=$TANDEM_RESULTS/rates.xml $TANDEM_HIDDEN/test_convert.py; s=$?; [ -d "$HOME/.cache/pytest/.pytest_cache" ] && [ -z "$(git status --porcelain)" ] || exit 98; exit $s',
            results: { format: 'junit', path: 'rates.xml' },
            timeout: 120,
          },
        ],
      },
      hidden: {
        'hidden/test_convert.py': `from rates import RATES, convert

def test_convert():
    assert convert(10, "USD") == 11.0

def test_rates_keep_eur():
    assert RATES["EUR"] == 1.0
`,
      },
    });
    docker.track(c.root);
    report = await docker.evaluate(c.input);
  }, 300_000);

  it('fails base with "collection error" and resolves with both hidden tests F2P', () => {
    expect(report.infraErrors).toEqual([]);
    expect(outcomes(report)).toEqual({ base: 'fail', full: 'pass' });
    const base = configuration(report, 'base');
    expect(base.groups.map((g) => [g.status, g.exitCode])).toEqual([['broken', 2]]);
    // pytest names the module from its rootdir (/tandem): `hidden.test_convert`, then filtered.
    expect(base.groups[0]!.reason).toMatch(/^collection error \(hidden\.test_convert\): no test ran/);
    expect([...report.tests.failToPass].sort()).toEqual([
      'rates::hidden.test_convert::test_convert',
      'rates::hidden.test_convert::test_rates_keep_eur',
    ]);
    expect(report.verdict).toMatchObject({ resolved: true, unnecessary: [], fixRate: 1 });
    // pytest's cache went under HOME, and nothing landed in the checkout.
    const full = configuration(report, 'full');
    expect(full.groups.map((g) => [g.status, g.exitCode])).toEqual([['reported', 0]]);
  });
});

/**
 * jest's `--json` report as jest writes it for a test file that throws while loading (no
 * assertion results, the file `failed` with its message): a tiny runner in the hidden files
 * loads each file with require, so the load failure at base is real.
 */
const JEST_LIKE = `const fs = require('node:fs');
const path = require('node:path');
const files = process.argv.slice(2);
const testResults = [];
for (const file of files) {
  const tests = [];
  global.test = (title, fn) => tests.push({ title, fn });
  try {
    require(path.resolve(file));
  } catch (err) {
    testResults.push({ name: path.resolve(file), status: 'failed', message: 'Test suite failed to run\\n\\n' + err.message, assertionResults: [] });
    continue;
  }
  const assertionResults = tests.map(({ title, fn }) => {
    try { fn(); return { ancestorTitles: [], title, status: 'passed', failureMessages: [] }; }
    catch (err) { return { ancestorTitles: [], title, status: 'failed', failureMessages: [err.message] }; }
  });
  testResults.push({ name: path.resolve(file), status: assertionResults.every((a) => a.status === 'passed') ? 'passed' : 'failed', assertionResults });
}
fs.writeFileSync(process.env.TANDEM_RESULTS + '/jest.json', JSON.stringify({ testResults }));
process.exit(testResults.every((f) => f.status === 'passed') ? 0 : 1);
`;

describe('a jest suite that fails to load at base', () => {
  let report: Report;
  beforeAll(async () => {
    const c = await shellCase({
      name: 'jest-load',
      repos: [
        {
          name: 'web',
          base: {
            'package.json': '{ "name": "web", "private": true }\n',
            'format.js': 'module.exports = { plain: (n) => String(n) };\n',
          },
          head: {
            'money.js': 'module.exports = { money: (n) => n.toFixed(2) + " EUR" };\n',
          },
        },
      ],
      suite: {
        name: 'jest-load-suite',
        image: SANDBOX_IMAGE,
        tests: [
          {
            name: 'web',
            repo: 'acme/web',
            files: ['hidden/jest-like.js', 'hidden/money.test.js', 'hidden/format.test.js'],
            run: 'cp $TANDEM_HIDDEN/*.test.js web/ && cd web && node $TANDEM_HIDDEN/jest-like.js format.test.js money.test.js; s=$?; rm *.test.js; exit $s',
            results: { format: 'jest-json', path: 'jest.json' },
            timeout: 120,
          },
        ],
      },
      hidden: {
        'hidden/jest-like.js': JEST_LIKE,
        'hidden/money.test.js': `const { money } = require('./money.js');
test('formats euros', () => { if (money(2) !== '2.00 EUR') throw new Error(money(2)); });
`,
        'hidden/format.test.js': `const { plain } = require('./format.js');
test('formats plain numbers', () => { if (plain(2) !== '2') throw new Error(plain(2)); });
`,
      },
    });
    docker.track(c.root);
    report = await docker.evaluate(c.input);
  }, 300_000);

  it('fails base on the file that did not load, and judges its tests F2P once it does', () => {
    expect(report.infraErrors).toEqual([]);
    expect(outcomes(report)).toEqual({ base: 'fail', full: 'pass' });
    // Hidden file names leave the evaluator as [hidden] (core/leak-filter.ts).
    expect(report.tests.failToPass).toEqual(['web::web/[hidden]::formats euros']);
    expect(report.tests.passToPass).toEqual(['web::web/[hidden]::formats plain numbers']);
    expect(report.tests.seenOnlyWithPr).toBe(0);
    const missing = configuration(report, 'base').tests.find((t) => t.kind === 'F2P')!;
    expect(missing.status).toBe('missing');
    expect(missing.reason).toMatch(/^file failed to load: Test suite failed to run/);
    expect(report.verdict).toMatchObject({ resolved: true, unnecessary: [], fixRate: 1 });
  });
});
