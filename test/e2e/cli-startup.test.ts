/**
 * `tandem --version` and `--help` load commander and the command registrations only: the
 * engine, Docker client, zod, the App's libraries and each command's implementation are
 * imported when a command runs. Checked by tracing every module the process resolves, so a
 * command file that statically imports its implementation fails here. (The start time itself
 * is a benchmark: bench/cli-start.ts.)
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/example-cases.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';

const TRACER = pathToFileURL(path.join(REPO_ROOT, 'test', 'support', 'trace-imports.js')).href;
let dir: string;
let runs = 0;

beforeAll(async () => {
  dir = await makeTempDir('tandem-cli-startup-');
});
afterAll(() => removeTempDir(dir));

/** Runs `node bin/tandem.js …` with the tracer; the exit code and every URL it resolved. */
async function traced(args: string[]): Promise<{ code: number; urls: string[] }> {
  const file = path.join(dir, `trace-${++runs}.txt`);
  const code = await new Promise<number>((resolve) => {
    execFile(
      process.execPath,
      ['--import', TRACER, path.join(REPO_ROOT, 'bin', 'tandem.js'), ...args],
      { env: { ...process.env, TRACE_IMPORTS_FILE: file } },
      (err) => resolve(err ? Number((err as { code?: number }).code ?? 1) : 0),
    );
  });
  const urls = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
  return { code, urls };
}

/** Package names among the URLs (`node_modules/@scope/name/…` → `@scope/name`). */
function packages(urls: string[]): string[] {
  const names = urls.flatMap((u) => {
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u);
    return m ? [m[1]!] : [];
  });
  return [...new Set(names)].sort();
}

/** Our compiled modules among the URLs, relative to build/ (`cli/main.js`, …). */
function ours(urls: string[]): string[] {
  const root = `${pathToFileURL(path.join(REPO_ROOT, 'build')).href}/`;
  return urls.filter((u) => u.startsWith(root)).map((u) => u.slice(root.length));
}

/** What start-up may load from build/: the wiring, the registrations, errors and the version. */
const START_UP = /^(cli\/(main|context|exit-codes)|cli\/commands\/[^/]+|core\/errors|engine\/version)\.js$/;

describe('start-up loads nothing heavy', () => {
  it.each(['--version', '--help', 'eval --help', 'validate --help', 'merge --help'])(
    'tandem %s: commander only, no command implementation',
    async (line) => {
      const { code, urls } = await traced(line.split(' '));
      expect(code).toBe(0);
      expect(packages(urls)).toEqual(['commander']);
      const loaded = ours(urls);
      expect(loaded).toContain('cli/main.js');
      expect(loaded.filter((m) => !START_UP.test(m))).toEqual([]);
    },
  );

  it('a command that runs loads its implementation (the trace sees lazy imports)', async () => {
    const { code, urls } = await traced(['plan', path.join(dir, 'no-such-case.yml')]);
    expect(code).toBe(2);
    expect(ours(urls)).toContain('cli/run/plan.js');
    expect(packages(urls)).toContain('zod');
  });
});
