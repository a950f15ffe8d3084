/**
 * Test-file rules per ecosystem (core/test-file-rules.ts) and per repository configuration
 * (core/test-config*.ts): each rule on its own, and what it must leave alone.
 */
import { describe, expect, it } from 'vitest';
import { configuredTestGlobs, isTestConfigFile, repositoryTestGlobs } from '../../src/core/test-config.ts';
import { literalsOf, scriptPaths } from '../../src/core/test-config-js.ts';
import { iniSection, pythonConfigTestGlobs } from '../../src/core/test-config-python.ts';
import { DEFAULT_TEST_GLOBS, isRustTestOnly, matchesTestGlobs } from '../../src/core/test-file-rules.ts';

const isTest = (file: string, globs: readonly string[] = DEFAULT_TEST_GLOBS) => matchesTestGlobs(file, globs);

describe('default rules by ecosystem', () => {
  it.each([
    // JavaScript / TypeScript
    ['test.js', true],
    ['packages/parser/test.js', true],
    ['packages/parser/test.mjs', true],
    ['tests.ts', true],
    ['test/index.js', true],
    ['test/fixtures/broken/input.json', true],
    ['src/__tests__/a.tsx', true],
    ['src/__fixtures__/big.json', true],
    ['src/__snapshots__/a.test.ts.snap', true],
    ['src/parse.test.ts', true],
    ['src/parse.spec.mjs', true],
    ['test-utils.js', true],
    ['src/parse.ts', false],
    ['src/contest.js', false],
    ['src/latest.js', false],
    ['testing.md', false],
    // Python
    ['tests/test_api.py', true],
    ['pkg/test_api.py', true],
    ['pkg/api_test.py', true],
    ['conftest.py', true],
    ['pkg/tests/data/sample.csv', true],
    ['pkg/api.py', false],
    ['pkg/contest.py', false],
    // Go
    ['client_test.go', true],
    ['parser/testdata/input.golden', true],
    ['client.go', false],
    // Rust
    ['tests/integration.rs', true],
    ['src/lib.rs', false],
    // Java
    ['src/test/java/a/ATest.java', true],
    ['module/src/test/resources/x.json', true],
    ['src/main/java/a/A.java', false],
  ])('%s → test %s', (file, expected) => {
    expect(isTest(file)).toBe(expected);
  });
});

describe('Rust files with only #[cfg(test)] code', () => {
  it('an inner #![cfg(test)] attribute makes the whole file test code', () => {
    expect(isRustTestOnly('//! tests\n#![cfg(test)]\nuse super::*;\n#[test]\nfn a() {}\n')).toBe(true);
  });
  it('every top-level item under #[cfg(test)]', () => {
    expect(isRustTestOnly('#[cfg(test)]\nmod tests {\n    #[test]\n    fn a() { assert!(true); }\n}\n')).toBe(
      true,
    );
  });
  it('a module with real code beside its tests is not test-only', () => {
    expect(isRustTestOnly('pub fn add(a: u8) -> u8 { a }\n#[cfg(test)]\nmod tests {}\n')).toBe(false);
    expect(isRustTestOnly('')).toBe(false);
  });
});

describe('what package.json test scripts name', () => {
  it('reads paths and globs, never commands or flags', () => {
    expect(scriptPaths('node test.js')).toEqual(['test.js']);
    expect(scriptPaths("mocha --recursive 'check/**/*.js' && nyc tape smoke/run.js")).toEqual([
      'check/**/*.js',
      'smoke/run.js',
    ]);
    expect(scriptPaths('NODE_ENV=test node --test test')).toEqual(['test']);
    expect(scriptPaths('npm run lint && jest')).toEqual([]);
  });
  it('a package names its own test file, relative to its folder', () => {
    const globs = configuredTestGlobs([
      {
        path: 'packages/core/package.json',
        text: '{"scripts":{"test":"node check.js","build":"node build.js"}}',
      },
    ]);
    expect(globs).toEqual(['packages/core/check.js']);
    expect(isTest('packages/core/check.js', globs)).toBe(true);
    expect(isTest('packages/core/build.js', globs)).toBe(false);
  });
  it('test:* scripts count too; a folder takes everything under it', () => {
    const globs = configuredTestGlobs([{ path: 'package.json', text: '{"scripts":{"test:e2e":"ava e2e"}}' }]);
    expect(globs).toEqual([]); // `e2e` alone is not a path-like word
    const dir = configuredTestGlobs([{ path: 'package.json', text: '{"scripts":{"test:e2e":"ava e2e/"}}' }]);
    expect(isTest('e2e/login/fixture.html', dir)).toBe(true);
  });
});

describe('jest, vitest and mocha configuration', () => {
  it('jest testMatch within roots, in package.json', () => {
    const globs = configuredTestGlobs([
      {
        path: 'package.json',
        text: JSON.stringify({ jest: { roots: ['<rootDir>/checks'], testMatch: ['**/*.check.js'] } }),
      },
    ]);
    expect(isTest('checks/deep/a.check.js', globs)).toBe(true);
    expect(isTest('src/a.check.js', globs)).toBe(false);
  });
  it('jest.config.js is read, not run', () => {
    const text =
      "module.exports = {\n  testMatch: ['<rootDir>/verify/**/*.js'],\n  roots: ['<rootDir>'],\n};\n";
    expect(literalsOf(text, 'testMatch')).toEqual(['<rootDir>/verify/**/*.js']);
    expect(isTest('verify/a/b.js', configuredTestGlobs([{ path: 'jest.config.js', text }]))).toBe(true);
  });
  it('vitest include inside test: { … } only', () => {
    const text =
      "export default defineConfig({ build: { include: ['src/**'] }, test: { include: ['checks/**/*.ts'] } });";
    const globs = configuredTestGlobs([{ path: 'web/vitest.config.ts', text }]);
    expect(globs).toEqual(['web/checks/**/*.ts']);
  });
  it('mocha spec from .mocharc.yml and package.json', () => {
    expect(configuredTestGlobs([{ path: '.mocharc.yml', text: 'spec:\n  - "specs/**/*.js"\n' }])).toEqual([
      'specs/**/*.js',
    ]);
    expect(configuredTestGlobs([{ path: 'package.json', text: '{"mocha":{"spec":"qa"}}' }])).toEqual([
      'qa',
      'qa/**',
    ]);
  });
});

describe('pytest configuration', () => {
  it('testpaths and python_files in pyproject.toml, over several lines', () => {
    const text =
      '[project]\nname = "x"\n\n[tool.pytest.ini_options]\ntestpaths = [\n    "checks",\n    "integration",\n]\npython_files = ["check_*.py"]\n';
    const globs = configuredTestGlobs([{ path: 'pyproject.toml', text }]);
    expect(isTest('checks/helpers.py', globs)).toBe(true);
    expect(isTest('integration/data/x.json', globs)).toBe(true);
    expect(isTest('checks/sub/check_api.py', globs)).toBe(true);
    expect(isTest('pkg/check_api.py', globs)).toBe(false);
  });
  it('[tool:pytest] in setup.cfg, [pytest] in pytest.ini and tox.ini', () => {
    expect(iniSection('[tool:pytest]\ntestpaths = qa\n    smoke\n', 'tool:pytest').get('testpaths')).toBe(
      'qa smoke',
    );
    expect(configuredTestGlobs([{ path: 'setup.cfg', text: '[tool:pytest]\ntestpaths = qa\n' }])).toEqual([
      'qa',
      'qa/**',
    ]);
    expect(
      configuredTestGlobs([{ path: 'svc/pytest.ini', text: '[pytest]\npython_files = verify_*.py\n' }]),
    ).toEqual(['svc/**/verify_*.py']);
    expect(configuredTestGlobs([{ path: 'tox.ini', text: '[tox]\n[pytest]\ntestpaths = t\n' }])).toEqual([
      't',
      't/**',
    ]);
  });
  it('paths that leave the folder are ignored', () => {
    expect(configuredTestGlobs([{ path: 'a/pytest.ini', text: '[pytest]\ntestpaths = ../other\n' }])).toEqual(
      [],
    );
  });
});

describe('which files are read', () => {
  it('config files outside dependency folders', () => {
    expect(isTestConfigFile('packages/a/package.json')).toBe(true);
    expect(isTestConfigFile('jest.config.mjs')).toBe(true);
    expect(isTestConfigFile('tox.ini')).toBe(true);
    expect(isTestConfigFile('node_modules/a/package.json')).toBe(false);
    expect(isTestConfigFile('src/index.ts')).toBe(false);
  });
  it('a repository keeps the defaults beside its own rules', () => {
    const globs = repositoryTestGlobs([
      { path: 'package.json', text: '{"scripts":{"test":"node check.js"}}' },
    ]);
    expect(isTest('check.js', globs)).toBe(true);
    expect(isTest('test/a.js', globs)).toBe(true);
  });
});

describe('pyproject.toml read as TOML', () => {
  it('finds pytest options written with dotted keys, comments inside arrays and literal strings', () => {
    const dotted = 'tool.pytest.ini_options.testpaths = ["qa"]\n';
    expect(pythonConfigTestGlobs('pyproject.toml', dotted)).toEqual(['qa', 'qa/**']);
    const commented = `[tool.pytest.ini_options]\ntestpaths = [\n  "tests", # unit\n  'it',\n]\npython_files = "check_*.py"\n`;
    expect(pythonConfigTestGlobs('svc/pyproject.toml', commented)).toEqual([
      'svc/tests',
      'svc/tests/**',
      'svc/it',
      'svc/it/**',
      'svc/tests/**/check_*.py',
      'svc/it/**/check_*.py',
    ]);
    expect(pythonConfigTestGlobs('pyproject.toml', '[tool.pytest.ini_options\nbroken')).toEqual([]);
  });
});
