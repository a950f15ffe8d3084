/**
 * The test files a repository names in its own configuration, over every ecosystem the miner
 * reads: the files to read (`isTestConfigFile`) and the globs they give. Pure.
 */
import { JS_TEST_CONFIG, jsConfigTestGlobs } from './test-config-js.ts';
import { PYTHON_TEST_CONFIG, pythonConfigTestGlobs } from './test-config-python.ts';
import { DEFAULT_TEST_GLOBS } from './test-file-rules.ts';

/** Whether a repository path is a config file that may name tests (outside dependencies). */
export function isTestConfigFile(path: string): boolean {
  if (/(?:^|\/)(?:node_modules|vendor|\.git|site-packages)\//.test(path)) return false;
  return JS_TEST_CONFIG.test(path) || PYTHON_TEST_CONFIG.test(path);
}

/** Globs the given config files name (repository-relative paths and their text). */
export function configuredTestGlobs(files: ReadonlyArray<{ path: string; text: string }>): string[] {
  const out = new Set<string>();
  for (const f of files) {
    const globs = JS_TEST_CONFIG.test(f.path)
      ? jsConfigTestGlobs(f.path, f.text)
      : PYTHON_TEST_CONFIG.test(f.path)
        ? pythonConfigTestGlobs(f.path, f.text)
        : [];
    for (const g of globs) out.add(g);
  }
  return [...out];
}

/** A repository's test globs: every ecosystem's defaults plus what its configuration names. */
export function repositoryTestGlobs(files: ReadonlyArray<{ path: string; text: string }>): string[] {
  return [...new Set([...DEFAULT_TEST_GLOBS, ...configuredTestGlobs(files)])];
}
