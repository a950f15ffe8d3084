/**
 * `tandem --version` and `--help` load commander and the command registrations only: the
 * engine, Docker client, zod, the App's libraries and each command's implementation are
 * imported when a command runs. Checked by tracing every module the process resolves, so a
 * command file that statically imports its implementation fails here. (The start time itself
 * is a benchmark: perf/cli-start.ts.)
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appChecksCase, ensureDocker, REPO_ROOT } from '../helpers/example-cases.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';

const TRACER = pathToFileURL(path.join(REPO_ROOT, 'test', 'support', 'trace-imports.js')).href;
let dir: string;
let runs = 0;

beforeAll(async () => {
  dir = await makeTempDir('tandem-cli-startup-');
});
afterAll(() => removeTempDir(dir));

/** Runs `node bin/tandem.js …` with the tracer; the exit code and every URL it resolved. */
async function traced(args: string[]): Promise<{ code: number; urls: string[]; stdout: string }> {
  const file = path.join(dir, `trace-${++runs}.txt`);
  const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', TRACER, path.join(REPO_ROOT, 'bin', 'tandem.js'), ...args],
      { env: { ...process.env, TRACE_IMPORTS_FILE: file } },
      (err, out) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout: out }),
    );
  });
  const urls = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
  return { code, urls, stdout };
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
// core/errors.ts words a thrown value with core/error-text.ts (pure, no imports of its own).
const START_UP =
  /^(cli\/(main|context|exit-codes)|cli\/commands\/[^/]+|core\/errors|core\/error-text|engine\/version)\.js$/;

/** Asserts that a traced run loaded commander and start-up modules only. */
function expectLight(what: string, urls: string[]): void {
  expect(packages(urls), what).toEqual(['commander']);
  const loaded = ours(urls);
  expect(loaded, what).toContain('cli/main.js');
  expect(
    loaded.filter((m) => !START_UP.test(m)),
    what,
  ).toEqual([]);
}

/** The sub-command names a help text lists (`help` itself left out). */
function commandsIn(help: string): string[] {
  const section = help.split(/^Commands:\n/m)[1]?.split(/\n\n/)[0] ?? '';
  return [...section.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
}

describe('start-up loads nothing heavy', () => {
  it('tandem --version: commander only, no command implementation', async () => {
    const { code, urls } = await traced(['--version']);
    expect(code).toBe(0);
    expectLight('--version', urls);
  });

  it('tandem --help and every command’s --help, sub-commands included', async () => {
    const seen: string[] = [];
    const walk = async (path: string[]): Promise<void> => {
      const { code, urls, stdout } = await traced([...path, '--help']);
      expect(code, path.join(' ')).toBe(0);
      expectLight(`${[...path, '--help'].join(' ')}`, urls);
      seen.push(path.join(' '));
      for (const sub of commandsIn(stdout)) await walk([...path, sub]);
    };
    await walk([]);
    expect(seen).toEqual(expect.arrayContaining(['', 'eval', 'validate', 'plan', 'combine']));
  }, 300_000);

  it('tandem eval CASE runs the case without the GitHub client behind --pr', async () => {
    ensureDocker();
    const c = await appChecksCase({
      name: 'startup-eval',
      base: { 'app.txt': 'alpha\n' },
      head: { 'app.txt': 'beta\n' },
      checks: [{ name: 'says beta', cmd: 'grep -q beta app/app.txt' }],
    });
    try {
      const { code, urls } = await traced([
        'eval',
        c.caseFile,
        '--quiet',
        '--cache-dir',
        path.join(dir, 'cache'),
      ]);
      // Resolved: a verdict was reached, so everything the run needed was loaded.
      expect(code).toBe(0);
      expect(ours(urls)).toContain('cli/run/eval.js');
      expect(ours(urls).filter((m) => m.startsWith('github/') || m === 'cli/pull-request-change.js')).toEqual(
        [],
      );
      expect(packages(urls).filter((p) => p.startsWith('@octokit/'))).toEqual([]);
      // The worker pool's queue (pg-boss, pg) loads only for `tandem worker`.
      expect(packages(urls).filter((p) => p === 'pg-boss' || p === 'pg')).toEqual([]);
      expect(ours(urls).filter((m) => m.startsWith('engine/workers/'))).toEqual([]);
    } finally {
      await removeTempDir(c.root);
    }
  });

  it('a command that runs loads its implementation (the trace sees lazy imports)', async () => {
    const { code, urls } = await traced(['plan', path.join(dir, 'no-such-case.yml')]);
    expect(code).toBe(2);
    expect(ours(urls)).toContain('cli/run/plan.js');
    expect(packages(urls)).toContain('zod');
  });
});
