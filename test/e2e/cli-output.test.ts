/**
 * How `tandem` writes: `--json -` (stdout carries the report alone), `--quiet` (the verdict line
 * still printed), colours by NO_COLOR / FORCE_COLOR / TTY, and the help text. Through
 * `tandem combine` on a report file, so no Docker is needed.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/core/report.schema.ts';
import { type CliEnv, runCli } from '../helpers/example-cases.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';
import { writeResolvedShard } from '../helpers/shard-report.ts';

const ESC = '\u001b[';
let dir: string;
let shard: string;

beforeAll(async () => {
  dir = await makeTempDir('tandem-cli-output-');
  shard = await writeResolvedShard(dir);
});
afterAll(() => removeTempDir(dir));

describe('--json -', () => {
  it('writes the report, and nothing else, to stdout; the summary stays on stderr', async () => {
    const r = await runCli(['merge', shard, '--json', '-', '--markdown', path.join(dir, 'r.md')]);
    expect(r.code, r.stderr).toBe(0);
    const report = reportSchema.parse(JSON.parse(r.stdout));
    expect(report.outcome).toBe('resolved');
    expect(r.stdout).toBe(`${JSON.stringify(report, null, 2)}\n`);
    expect(r.stderr).toContain('Verdict: RESOLVED');
    expect(await readFile(path.join(dir, 'r.md'), 'utf8')).toContain('(full matrix).');
  });

  it('without it stdout is empty and a file named by --json gets the report', async () => {
    const file = path.join(dir, 'merged.json');
    const r = await runCli(['merge', shard, '--json', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(reportSchema.parse(JSON.parse(await readFile(file, 'utf8'))).outcome).toBe('resolved');
  });
});

describe('--markdown -', () => {
  it('writes the Markdown report, and nothing else, to stdout', async () => {
    const r = await runCli(['merge', shard, '--markdown', '-']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('(full matrix).');
    expect(r.stdout).not.toContain('Verdict: RESOLVED');
    expect(r.stderr).toContain('Verdict: RESOLVED');
  });

  it('with --json - as well is bad input: stdout carries one report', async () => {
    const r = await runCli(['merge', shard, '--json', '-', '--markdown', '-']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--json - and --markdown -');
  });
});

describe('--quiet', () => {
  it('prints the verdict line alone on stderr', async () => {
    const r = await runCli(['merge', shard, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    // A checkout whose sources changed since the last build says so once before compiling.
    const lines = r.stderr
      .trimEnd()
      .split('\n')
      .filter((l) => !l.startsWith('tandem: compiling the CLI'));
    expect(lines).toEqual([expect.stringMatching(/^Verdict: RESOLVED/)]);
  });

  it('without it the matrix is printed as well', async () => {
    const r = await runCli(['merge', shard]);
    expect(r.stderr).toContain('Configuration');
    expect(r.stderr).toMatch(/^Verdict: RESOLVED/m);
  });
});

describe('colours', () => {
  // runCli's output is a pipe, not a terminal; the runner's own FORCE_COLOR/NO_COLOR are removed.
  const cases: Array<[string, CliEnv, boolean]> = [
    ['a pipe gets plain text', { NO_COLOR: undefined, FORCE_COLOR: undefined }, false],
    ['FORCE_COLOR=1 colours a pipe', { NO_COLOR: undefined, FORCE_COLOR: '1' }, true],
    ['FORCE_COLOR wins over NO_COLOR', { NO_COLOR: '1', FORCE_COLOR: '1' }, true],
    ['FORCE_COLOR=0 turns colour off', { NO_COLOR: undefined, FORCE_COLOR: '0' }, false],
    ['NO_COLOR=1 turns colour off', { NO_COLOR: '1', FORCE_COLOR: undefined }, false],
  ];
  it.each(cases)('%s', async (_name, env, coloured) => {
    const r = await runCli(['merge', shard], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('RESOLVED');
    expect(r.stderr.includes(ESC)).toBe(coloured);
    if (coloured) expect(r.stderr).toContain(`${ESC}32mRESOLVED`);
  });

  it('never colours the JSON on stdout', async () => {
    const r = await runCli(['merge', shard, '--json', '-'], { FORCE_COLOR: '1' });
    expect(r.stdout.includes(ESC)).toBe(false);
    expect(r.stderr.includes(ESC)).toBe(true);
  });
});

describe('help', () => {
  it('shows examples, exit codes and the environment variables', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const text of [
      'Examples:',
      'tandem eval case.yml --json - |',
      'Exit codes:',
      '2    bad input',
      '3    infrastructure error',
      'Environment:',
      'TANDEM_CACHE_DIR',
      'TANDEM_WORK_DIR',
      'DOCKER_HOST',
      'NO_COLOR',
      'FORCE_COLOR',
    ])
      expect(r.stdout).toContain(text);
  });

  it('eval --help documents --json - and --quiet, with exit codes and the environment', async () => {
    const r = await runCli(['eval', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--json <file>\s+write the JSON report here \(- for stdout/);
    expect(r.stdout).toMatch(/--quiet\s+no progress or summary: only the verdict line/);
    expect(r.stdout).toContain('Exit codes:');
    expect(r.stdout).toContain('TANDEM_CACHE_DIR');
  });
});
