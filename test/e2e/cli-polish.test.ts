/**
 * The CLI's manners (the built CLI, spawned): a usage error is one `tandem:` line and a pointer
 * to --help, not the whole help; a missing file is "no such file", not ENOENT; every `bench`
 * help page has an example; `--prepare-network` is retired (not in the help, a warning when
 * given); and on a terminal the finished progress bar is cleared before the summary.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { appChecksCase, REPO_ROOT, runCli } from '../helpers/example-cases.ts';
import { removeTempDir } from '../helpers/git-fixtures.ts';
import { useFileTempDir } from '../helpers/test-cleanup.ts';

const run = promisify(execFile);
const dir = useFileTempDir('tandem-polish-');

describe('tandem usage errors and missing files', () => {
  it('an unknown option is one tandem: line and a pointer to --help', async () => {
    const r = await runCli(['eval', '--bogus', 'case.yml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("tandem: unknown option '--bogus'\n(add --help for the usage of this command)\n");
  });

  it('a missing case or config file is "no such file", never ENOENT', async () => {
    const missing = path.join(dir(), 'nope.yml');
    for (const args of [
      ['eval', missing],
      ['config', 'check', missing],
    ]) {
      const r = await runCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`tandem: no such file ${missing}\n`);
    }
  });
});

describe('help', () => {
  it('every bench help page has an example', async () => {
    for (const sub of ['', 'run', 'validate', 'combine', 'derive', 'report', 'regrade', 'compare']) {
      const r = await runCli(['bench', ...(sub ? [sub] : []), '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout, `bench ${sub} --help`).toMatch(/Examples?:\n {2}tandem bench /);
    }
  });

  it('--prepare-network is retired: not in the help, and a warning when given', async () => {
    const help = await runCli(['eval', '--help']);
    expect(help.stdout).not.toContain('--prepare-network');
    const c = await appChecksCase({
      name: 'net',
      base: { 'app.txt': 'a\n' },
      head: { 'feature.txt': 'on\n' },
      checks: [{ name: 'has app', cmd: 'test -f app/app.txt' }],
    });
    const r = await runCli(['plan', c.caseFile]);
    expect(r.code, r.stderr).toBe(0);
    const e = await runCli([
      'eval',
      c.caseFile,
      '--sandbox',
      'process',
      '--prepare-network',
      'host',
      '--quiet',
      '--cache-dir',
      path.join(dir(), 'cache'),
    ]);
    expect(e.stderr).toContain('tandem: --prepare-network is retired and ignored');
    await removeTempDir(c.root);
  });
});

describe('progress on a terminal', () => {
  it('the finished bar is cleared before the summary', async () => {
    const c = await appChecksCase({
      name: 'bar',
      base: { 'app.txt': 'a\n' },
      head: { 'feature.txt': 'on\n' },
      checks: [{ name: 'feature', cmd: 'test -f app/feature.txt' }],
    });
    const cli = [
      process.execPath,
      path.join(REPO_ROOT, 'bin', 'tandem.js'),
      'eval',
      c.caseFile,
      '--sandbox',
      'process',
      '--cache-dir',
      path.join(dir(), 'cache-bar'),
    ];
    // `script` gives the CLI a pseudo-terminal, as a user's shell would.
    const { stdout } = await run('script', ['-qec', cli.map((a) => `'${a}'`).join(' '), '/dev/null'], {
      env: { ...process.env, NO_COLOR: '1' },
    }).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
    const lastBar = stdout.lastIndexOf('/2 configurations');
    expect(lastBar, stdout).toBeGreaterThan(-1);
    const after = stdout.slice(lastBar);
    // cli-progress clears the bar's line (ESC[2K) when it stops; the verdict comes after.
    expect(after.indexOf('\u001b[2K'), JSON.stringify(after)).toBeGreaterThan(-1);
    expect(after.indexOf('\u001b[2K')).toBeLessThan(after.indexOf('Verdict'));
    await removeTempDir(c.root);
  });
});
