/**
 * Languages beyond Node through the whole engine, in the offline images built from the host's
 * toolchains (scripts/build-lang-images.sh): a Python producer wired into a Node consumer (a
 * cross-language linked change, pytest with JUnit results), and a Go producer wired into a Go
 * consumer through a go.work outside the checkouts (`go test -json`). Every configuration must
 * see each producer in its own state.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { REPO_ROOT, shellCase } from '../helpers/example-cases.ts';

const docker = dockerSuite('engine-languages');

beforeAll(() => {
  execFileSync('bash', ['scripts/build-lang-images.sh'], { cwd: REPO_ROOT, stdio: 'inherit' });
}, 600_000);

/** Per configuration: every test's status, sorted, so a failure names its configuration. */
const notPassed = (r: Report) =>
  r.configurations.flatMap((c) =>
    c.tests.filter((t) => t.status !== 'passed').map((t) => `${c.id}: ${t.id}`),
  );

describe('a Python producer wired into a Node consumer', () => {
  let report: Report;
  beforeAll(async () => {
    const c = await shellCase({
      name: 'python-node',
      repos: [
        {
          name: 'rates',
          base: {
            'rates/__init__.py': '',
            'rates/table.py':
              'from pathlib import Path\nSTATE = (Path(__file__).parent.parent / "STATE").read_text().strip()\nRATES = {"EUR": 1.0}\n',
            'rates/export.py':
              'import json\nfrom rates.table import RATES, STATE\nprint(json.dumps({"state": STATE, "rates": RATES}))\n',
            STATE: 'base\n',
          },
          head: { STATE: 'head\n' },
        },
        {
          name: 'web',
          base: {
            'package.json': '{ "name": "web", "private": true }\n',
            'rates.js':
              'const { execFileSync } = require("node:child_process");\nmodule.exports = () => JSON.parse(execFileSync("python3", ["-m", "rates.export"], { encoding: "utf8" }));\n',
            STATE: 'base\n',
          },
          head: { STATE: 'head\n' },
        },
      ],
      suite: {
        name: 'python-node-suite',
        image: 'tandem/sandbox:python3',
        wiring: [{ into: 'acme/web', repo: 'acme/rates', as: 'python' }],
        tests: [
          {
            name: 'rates',
            repo: 'acme/rates',
            files: ['hidden/test_rates.py'],
            run: 'cd web && python3 -m pytest -q -p no:cacheprovider --junitxml=$TANDEM_RESULTS/rates.xml $TANDEM_HIDDEN/test_rates.py',
            results: { format: 'junit', path: 'rates.xml' },
            timeout: 120,
          },
          {
            name: 'web',
            repo: 'acme/web',
            files: ['hidden/web.test.js'],
            run: 'cd web && node --test --test-reporter=junit --test-reporter-destination=$TANDEM_RESULTS/web.xml $TANDEM_HIDDEN/web.test.js',
            results: { format: 'junit', path: 'web.xml' },
            timeout: 120,
          },
        ],
      },
      hidden: {
        'hidden/test_rates.py': `import os
import rates.table

def state(repo):
    with open(os.path.join(os.environ["TANDEM_WORKSPACE"], repo, "STATE")) as f:
        return f.read().strip()

def test_imported_from_the_checkout():
    assert rates.table.__file__ == os.path.join(os.environ["TANDEM_WORKSPACE"], "rates", "rates", "table.py")

def test_state_of_this_configuration():
    assert rates.table.STATE == state("rates")
`,
        'hidden/web.test.js': `const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const rates = require(process.env.TANDEM_WORKSPACE + '/web/rates.js');
const state = (repo) => fs.readFileSync(process.env.TANDEM_WORKSPACE + '/' + repo + '/STATE', 'utf8').trim();
test('web reads the rates of this configuration through python', () => {
  assert.deepStrictEqual(rates(), { state: state('rates'), rates: { EUR: 1 } });
});
`,
      },
    });
    docker.track(c.root);
    report = await docker.evaluate(c.input);
  }, 300_000);

  it('imports the producer from its checkout in every configuration', () => {
    expect(report.infraErrors).toEqual([]);
    expect(report.configurations.map((c) => c.id).sort()).toEqual(['base', 'full', 'rates', 'web']);
    expect(notPassed(report)).toEqual([]);
    for (const c of report.configurations) expect(c.tests).toHaveLength(3);
  });
});

describe('a Go producer wired into a Go consumer', () => {
  let report: Report;
  beforeAll(async () => {
    const c = await shellCase({
      name: 'go-go',
      repos: [
        {
          name: 'lib',
          base: {
            'go.mod': 'module example.com/acme/lib\n\ngo 1.19\n',
            'lib.go':
              'package lib\n\nimport "os"\n\n// Level is the state this checkout was built from.\nfunc Level() string {\n\tb, _ := os.ReadFile(os.Getenv("TANDEM_WORKSPACE") + "/lib/STATE")\n\treturn "lib-" + string(b)\n}\n',
            STATE: 'base',
          },
          head: {
            'lib.go':
              'package lib\n\n// Level is the state this checkout was built from.\nfunc Level() string { return "lib-head" }\n',
            STATE: 'head',
          },
        },
        {
          name: 'app',
          base: {
            'go.mod': 'module example.com/acme/app\n\ngo 1.19\n\nrequire example.com/acme/lib v0.0.0\n',
            'app.go':
              'package app\n\nimport "example.com/acme/lib"\n\n// Describe says which lib it was built with.\nfunc Describe() string { return lib.Level() }\n',
          },
          head: { 'README.md': 'app head\n' },
        },
      ],
      suite: {
        name: 'go-go-suite',
        image: 'tandem/sandbox:go',
        wiring: [{ into: 'acme/app', repo: 'acme/lib', as: 'go', name: 'example.com/acme/lib' }],
        tests: [
          {
            name: 'app',
            repo: 'acme/app',
            files: ['hidden/hidden_test.go'],
            run: 'cp $TANDEM_HIDDEN/hidden_test.go app/ && cd app && go test -json ./... > $TANDEM_RESULTS/app.json; s=$?; rm hidden_test.go; test -z "$(git status --porcelain)" && exit $s',
            results: { format: 'go-test-json', path: 'app.json' },
            timeout: 240,
          },
        ],
      },
      hidden: {
        'hidden/hidden_test.go': `package app

import (
	"os"
	"testing"
)

func TestBuiltAgainstThisConfigurationsLib(t *testing.T) {
	state, _ := os.ReadFile(os.Getenv("TANDEM_WORKSPACE") + "/lib/STATE")
	if got, want := Describe(), "lib-"+string(state); got != want {
		t.Fatalf("Describe() = %q, want %q", got, want)
	}
}

func TestGoWorkOutsideTheCheckout(t *testing.T) {
	if os.Getenv("GOWORK") != os.Getenv("TANDEM_WORKSPACE")+"/go.work" {
		t.Fatalf("GOWORK = %q", os.Getenv("GOWORK"))
	}
}
`,
      },
    });
    docker.track(c.root);
    report = await docker.evaluate(c.input);
  }, 600_000);

  it("builds the consumer against the producer's checkout in every configuration", () => {
    expect(report.infraErrors).toEqual([]);
    expect(notPassed(report)).toEqual([]);
    for (const c of report.configurations) expect(c.tests).toHaveLength(2);
    // Exit 0 also says the checkout's `git status` stayed clean: the go.work is outside it.
    for (const c of report.configurations)
      expect(c.groups.map((g) => [g.status, g.exitCode])).toEqual([['reported', 0]]);
  });
});
