/**
 * The test/non-test split of a mined side on generated repositories, one per ecosystem: each
 * repository's change touches code, tests by the ecosystem's rules, tests its own configuration
 * names (read at the side's head, never run), and fixture folders under test folders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { splitChange } from '../../src/mine/repo-change.ts';
import { commitOn, createRepo, type Files, makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';

interface Case {
  base: Files;
  change: Files;
  tests: string[];
  code: string[];
}

const CASES: Record<string, Case> = {
  javascript: {
    base: {
      'package.json': JSON.stringify({ scripts: { test: 'node smoke.js && mocha' } }),
      '.mocharc.yml': 'spec: "qa/**/*.js"\n',
      'packages/web/jest.config.js':
        "module.exports = { roots: ['<rootDir>/verify'], testMatch: ['**/*.check.js'] };\n",
      'packages/ui/vitest.config.ts': "export default { test: { include: ['specs/**/*.ts'] } };\n",
    },
    change: {
      'src/index.js': 'export const a = 2;\n',
      'test.js': 'a\n',
      'packages/core/test.js': 'b\n',
      'packages/core/src/core.js': 'c\n',
      'smoke.js': 'd\n',
      'qa/unit/a.js': 'e\n',
      'packages/web/verify/x.check.js': 'f\n',
      'packages/web/src/x.check.js': 'not under roots\n',
      'packages/ui/specs/a.ts': 'g\n',
      'test/fixtures/input/data.json': '{}\n',
      'src/__tests__/__fixtures__/big.txt': 'h\n',
      'scripts/test-helper.js': 'i\n',
    },
    tests: [
      'test.js',
      'packages/core/test.js',
      'smoke.js',
      'qa/unit/a.js',
      'packages/web/verify/x.check.js',
      'packages/ui/specs/a.ts',
      'test/fixtures/input/data.json',
      'src/__tests__/__fixtures__/big.txt',
      'scripts/test-helper.js',
    ],
    code: ['src/index.js', 'packages/core/src/core.js', 'packages/web/src/x.check.js'],
  },
  python: {
    base: {
      'pyproject.toml': '[tool.pytest.ini_options]\ntestpaths = ["checks"]\npython_files = ["check_*.py"]\n',
      'svc/pytest.ini': '[pytest]\ntestpaths = it\n',
      'lib/setup.cfg': '[tool:pytest]\npython_files = verify_*.py\n',
    },
    change: {
      'pkg/api.py': 'x = 1\n',
      'tests/test_api.py': 'a\n',
      'pkg/api_test.py': 'b\n',
      'conftest.py': 'c\n',
      'checks/helpers.py': 'd\n',
      'checks/data/sample.csv': 'e\n',
      'svc/it/flow.py': 'f\n',
      'svc/app.py': 'g\n',
      'lib/verify_lib.py': 'h\n',
    },
    tests: [
      'tests/test_api.py',
      'pkg/api_test.py',
      'conftest.py',
      'checks/helpers.py',
      'checks/data/sample.csv',
      'svc/it/flow.py',
      'lib/verify_lib.py',
    ],
    code: ['pkg/api.py', 'svc/app.py'],
  },
  go: {
    base: { 'go.mod': 'module example.com/x\n' },
    change: {
      'client.go': 'package x\n',
      'client_test.go': 'package x\n',
      'parser/testdata/golden/out.txt': 'a\n',
      'parser/parse.go': 'package parser\n',
    },
    tests: ['client_test.go', 'parser/testdata/golden/out.txt'],
    code: ['client.go', 'parser/parse.go'],
  },
  rust: {
    base: { 'Cargo.toml': '[package]\nname = "x"\n' },
    change: {
      'src/lib.rs': 'pub fn add(a: u8) -> u8 { a }\n#[cfg(test)]\nmod tests {}\n',
      'src/tests.rs': '#![cfg(test)]\nuse super::*;\n#[test]\nfn adds() { assert_eq!(add(1), 1); }\n',
      'src/helpers.rs': '#[cfg(test)]\nmod helpers {\n    pub fn fixture() {}\n}\n',
      'tests/integration.rs': '#[test]\nfn it() {}\n',
    },
    tests: ['src/tests.rs', 'src/helpers.rs', 'tests/integration.rs'],
    code: ['src/lib.rs'],
  },
  java: {
    base: { 'pom.xml': '<project/>\n' },
    change: {
      'src/main/java/x/A.java': 'class A {}\n',
      'src/test/java/x/ATest.java': 'class ATest {}\n',
      'src/test/resources/fixture.json': '{}\n',
    },
    tests: ['src/test/java/x/ATest.java', 'src/test/resources/fixture.json'],
    code: ['src/main/java/x/A.java'],
  },
};

let root: string;
const sides: Record<string, { bare: string; base: string; head: string }> = {};

beforeAll(async () => {
  root = await makeTempDir('tandem-mine-split-');
  for (const [eco, c] of Object.entries(CASES)) {
    const repo = await createRepo(root, eco, { 'README.md': `# ${eco}\n`, ...c.base });
    const head = await commitOn(repo, 'main', c.change, 'change');
    sides[eco] = { bare: repo.bare, base: repo.sha, head };
  }
});

afterAll(async () => {
  await removeTempDir(root);
});

describe.each(Object.keys(CASES))('test/non-test split on a generated %s repository', (eco) => {
  it('tests by the ecosystem and the repository configuration; code stays in the gold patch', async () => {
    const { bare, base, head } = sides[eco]!;
    const split = await splitChange(bare, base, head);
    const kinds = Object.fromEntries(split.files.map((f) => [f.path, f.kind]));
    const c = CASES[eco]!;
    expect(
      Object.keys(kinds)
        .filter((p) => kinds[p] === 'test')
        .sort(),
    ).toEqual([...c.tests].sort());
    for (const p of c.code) expect(kinds[p]).toBe('code');
    for (const p of c.tests) expect(split.testPatch).toContain(`diff --git a/${p} `);
    for (const p of c.code) expect(split.patch).toContain(`diff --git a/${p} `);
  });
});
