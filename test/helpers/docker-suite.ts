/**
 * The common frame of the Docker-backed engine and CLI test files: start the Docker engine (and
 * build the sandbox image) before the file's tests, give them one cache folder to share, and
 * remove that folder and every tracked temp folder after them. Call at the top of a file, before
 * the file's own hooks, so the engine is up when they run.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import { type Report, reportSchema } from '../../src/core/report.schema.ts';
import { evaluate } from '../../src/engine/evaluate.ts';
import type { EvaluationInput, EvaluationOptions } from '../../src/engine/evaluate-api.ts';
import { ensureDocker, testOptions } from './example-cases.ts';
import { makeTempDir, removeTempDir } from './git-fixtures.ts';

export interface DockerSuite {
  /** The file's result and dependency cache; set once its first `beforeAll` has run. */
  readonly cacheDir: string;
  /** Engine options over the file's cache (`testOptions`), with `over` on top. */
  options(over?: Partial<EvaluationOptions>): EvaluationOptions;
  /** Evaluates a case with `options(over)`. */
  evaluate(input: EvaluationInput, over?: Partial<EvaluationOptions>): Promise<Report>;
  /** The `tandem eval`/`validate` flags for the same engine settings as `options()`. */
  cliFlags(): string[];
  /** Removes `dir` after the file's tests; returns it. */
  track(dir: string): string;
}

/** Registers the file's setup and teardown; `name` tells the cache folder apart in /tmp. */
export function dockerSuite(name: string): DockerSuite {
  const temps: string[] = [];
  let cacheDir: string | undefined;
  const suite: DockerSuite = {
    get cacheDir() {
      if (!cacheDir) throw new Error('dockerSuite: the cache folder is made in beforeAll');
      return cacheDir;
    },
    options: (over = {}) => testOptions(suite.cacheDir, over),
    evaluate: (input, over = {}) => evaluate(input, suite.options(over)),
    cliFlags: () => ['--cache-dir', suite.cacheDir, '--jobs', '2'],
    track: (dir) => {
      temps.push(dir);
      return dir;
    },
  };
  beforeAll(async () => {
    ensureDocker();
    cacheDir = suite.track(await makeTempDir(`tandem-${name}-cache-`));
  }, 240_000);
  afterAll(async () => {
    for (const dir of temps) await removeTempDir(dir);
  });
  return suite;
}

/** Reads a JSON report the CLI wrote, validated against the report schema. */
export async function readReport(file: string): Promise<Report> {
  return reportSchema.parse(JSON.parse(await readFile(file, 'utf8')));
}
