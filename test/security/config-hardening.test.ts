/**
 * Attacks through what users and PR authors type (issue 8, findings 9 and 10): repository names
 * and suite paths that climb out of their folders, impossible limits, an unusable cache folder,
 * and PR bodies built to make the `Depends-On` parser take forever. Each is refused or handled at
 * once, in words that name the field — the CLI as a user runs it, exit 2.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseFileSchema } from '../../src/core/case.schema.ts';
import { suiteSchema } from '../../src/core/suite.schema.ts';
import { REPO_ROOT, runCli, SANDBOX_IMAGE } from '../helpers/example-cases.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';

const group = { name: 'g', run: 'true', results: { format: 'tap', path: 'g.tap' } };
const suite = (over: Record<string, unknown> = {}) => ({
  name: 's',
  image: SANDBOX_IMAGE,
  tests: [group],
  ...over,
});

function suiteIssues(input: unknown): string[] {
  const r = suiteSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('attack: names and paths that climb out', () => {
  it.each(['acme/..', 'acme/.', '../x', '..'])('refuses the repository name %s', (repo) => {
    const r = caseFileSchema.safeParse({
      name: 'c',
      suite: 'suite.yml',
      targets: [{ repo, url: '/tmp/x.git', base: 'main', head: 'f' }],
    });
    expect(r.success).toBe(false);
  });

  it.each([
    [
      'hidden files above the suite',
      { tests: [{ ...group, files: ['../../etc/passwd'] }] },
      /tests\.0\.files\.0/,
    ],
    ['an absolute hidden file', { tests: [{ ...group, files: ['/etc/shadow'] }] }, /tests\.0\.files\.0/],
    [
      'a result path above $TANDEM_RESULTS',
      { tests: [{ ...group, results: { format: 'tap', path: '../../x' } }] },
      /results\.path/,
    ],
    ['a group named ..', { tests: [{ ...group, name: '..' }] }, /tests\.0\.name/],
    [
      'an output above the repository',
      { prepare: { 'acme/a': { run: 'true', outputs: ['../x'] } } },
      /outputs\.0/,
    ],
    [
      'the repository itself as output',
      { prepare: { 'acme/a': { run: 'true', outputs: ['.'] } } },
      /outputs\.0/,
    ],
    [
      'a key file above the repository',
      { prepare: { 'acme/a': { run: 'true', key_files: ['../../etc/passwd'] } } },
      /key_files\.0/,
    ],
    ['a memory limit no container can run in', { limits: { memory: '1k' } }, /limits\.memory/],
  ])('refuses %s at load', (_name, over, field) => {
    const issues = suiteIssues(suite(over));
    expect(issues.join('\n')).toMatch(field);
  });
});

describe('attack: an unusable cache folder', () => {
  it('is bad input named in the message (exit 2), found before any work', async () => {
    const root = await makeTempDir('tandem-sec-cache-');
    try {
      await writeFile(path.join(root, 'not-a-folder'), 'x');
      await mkdir(path.join(root, 'evaluator'));
      await writeFile(path.join(root, 'evaluator', 'suite.yml'), JSON.stringify(suite()));
      await writeFile(
        path.join(root, 'case.yml'),
        JSON.stringify({
          name: 'c',
          suite: 'evaluator/suite.yml',
          targets: [{ repo: 'acme/a', url: path.join(root, 'a.git'), base: 'main', head: 'f' }],
        }),
      );
      const r = await runCli([
        'eval',
        path.join(root, 'case.yml'),
        '--cache-dir',
        path.join(root, 'not-a-folder', 'cache'),
      ]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `the cache folder ${path.join(root, 'not-a-folder', 'cache')} cannot be created`,
      );
    } finally {
      await removeTempDir(root);
    }
  });

  it.each([
    ['memory', { memory: '1k' }],
    ['cpus', { cpus: 4096 }],
  ])('an impossible %s limit is bad input too (exit 2), not an engine failure', async (field, limits) => {
    const root = await makeTempDir('tandem-sec-limits-');
    try {
      await writeFile(path.join(root, 'suite.yml'), JSON.stringify(suite({ limits })));
      await writeFile(
        path.join(root, 'case.yml'),
        JSON.stringify({
          name: 'c',
          suite: 'suite.yml',
          targets: [{ repo: 'acme/a', url: '/nowhere.git', base: 'main', head: 'f' }],
        }),
      );
      const r = await runCli(['eval', path.join(root, 'case.yml'), '--cache-dir', path.join(root, 'cache')]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`limits.${field}`);
    } finally {
      await removeTempDir(root);
    }
  });
});

/**
 * Runs parseLinks on `body` in a child process and resolves with its link count; rejects if the
 * child is still busy after `boundMs` (a bound thousands of times the linear cost, so only a
 * super-linear parser reaches it — the pre-fix regex took 4.6 s on 65 KB and hours on 1 MB).
 */
function parseInChild(body: string, boundMs: number): Promise<number> {
  const script = `import { parseLinks } from ${JSON.stringify(path.join(REPO_ROOT, 'src/core/link-parser.ts'))};
let body = ''; process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { body += d; });
process.stdin.on('end', () => { console.log(parseLinks('', body, { owner: 'acme', repo: 'api', number: 1 }).length); });`;
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(REPO_ROOT, 'node_modules/.bin/tsx'), ['--eval', script], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`parsing a ${body.length}-char body was still running after ${boundMs} ms`));
    }, boundMs);
    child.on('exit', () => {
      clearTimeout(timer);
      resolve(Number(out.trim()));
    });
    child.stdin.end(body);
  });
}

describe('attack: PR bodies built against the Depends-On parser', () => {
  it.each([
    ['the reported 65 KB body', `Depends-On:${' '.repeat(65_000)}x`, 0],
    ['1 MB of spaces after the key', `depends-on:${' '.repeat(1_000_000)}!`, 0],
    ['1 MB of near-miss lines', '- depends-on : \t'.repeat(65_000), 0],
    ['a link, then 1 MB of noise', `Depends-On: acme/web#2\n\n${'x '.repeat(500_000)}`, 1],
  ])('%s parses quickly and correctly', async (_name, body, links) => {
    expect(await parseInChild(body, 30_000)).toBe(links);
  });
});
