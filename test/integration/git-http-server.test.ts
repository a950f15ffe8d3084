import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitHttpServer, startGitHttpServer } from '../support/git-http-server.ts';

const tmp = mkdtempSync(join(tmpdir(), 'tandem-githttp-'));
const env = {
  ...process.env,
  HOME: tmp,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: join(tmp, 'gitconfig'),
  GIT_TERMINAL_PROMPT: '0',
  GIT_ASKPASS: '',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};
/** Local setup only: a sync call would block the in-process server. */
const gitSync = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
const git = async (cwd: string, ...args: string[]) =>
  (await promisify(execFile)('git', args, { cwd, env, encoding: 'utf8' })).stdout.trim();

/** Runs git expecting failure; returns its stderr. */
const gitFails = async (cwd: string, ...args: string[]): Promise<string> => {
  try {
    await git(cwd, ...args);
  } catch (err) {
    return String((err as { stderr?: string }).stderr ?? err);
  }
  throw new Error(`git ${args.join(' ')} succeeded`);
};

const root = join(tmp, 'served');
const work = join(tmp, 'work');
let mainSha = '';
let prSha = '';
let danglingSha = '';

beforeAll(() => {
  writeFileSync(env.GIT_CONFIG_GLOBAL, '');
  mkdirSync(work, { recursive: true });
  gitSync(work, 'init', '-q', '-b', 'main');
  writeFileSync(join(work, 'README.md'), 'hello\n');
  gitSync(work, 'add', '.');
  gitSync(work, 'commit', '-q', '-m', 'base');
  mainSha = gitSync(work, 'rev-parse', 'HEAD');
  mkdirSync(join(root, 'acme'), { recursive: true });
  const bare = join(root, 'acme', 'api.git');
  gitSync(tmp, 'clone', '-q', '--bare', work, bare);
  // A PR head that only refs/pull/3/head reaches, as on GitHub.
  gitSync(work, 'checkout', '-q', '-b', 'feature');
  writeFileSync(join(work, 'feature.txt'), 'feature\n');
  gitSync(work, 'add', '.');
  gitSync(work, 'commit', '-q', '-m', 'feature');
  prSha = gitSync(work, 'rev-parse', 'HEAD');
  gitSync(work, 'push', '-q', bare, 'feature:refs/pull/3/head');
  // An object present in the bare repository but reachable from no ref.
  gitSync(work, 'checkout', '-q', '-b', 'lost', 'main');
  writeFileSync(join(work, 'lost.txt'), 'lost\n');
  gitSync(work, 'add', '.');
  gitSync(work, 'commit', '-q', '-m', 'lost');
  danglingSha = gitSync(work, 'rev-parse', 'HEAD');
  gitSync(work, 'push', '-q', bare, 'lost:refs/heads/tmp');
  gitSync(bare, 'update-ref', '-d', 'refs/heads/tmp');
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('git http server without a token', () => {
  let server: GitHttpServer;
  beforeAll(async () => {
    server = await startGitHttpServer(root);
  });
  afterAll(() => server.close());

  it('clones over smart HTTP', async () => {
    const dest = join(tmp, 'clone-open');
    await git(tmp, 'clone', '-q', `${server.url}/acme/api.git`, dest);
    expect(await git(dest, 'rev-parse', 'HEAD')).toBe(mainSha);
    expect(server.requests.some((r) => r.path.endsWith('/git-upload-pack') && r.status === 200)).toBe(true);
  });

  it('fetches refs/pull/N/head and a commit by SHA (protocol v0 and v2)', async () => {
    const dest = join(tmp, 'fetch-open');
    await git(tmp, 'init', '-q', dest);
    await git(dest, 'fetch', '-q', `${server.url}/acme/api.git`, 'refs/pull/3/head');
    expect(await git(dest, 'rev-parse', 'FETCH_HEAD')).toBe(prSha);
    for (const version of ['0', '2']) {
      const d = join(tmp, `fetch-sha-v${version}`);
      await git(tmp, 'init', '-q', d);
      await git(
        d,
        '-c',
        `protocol.version=${version}`,
        'fetch',
        '-q',
        `${server.url}/acme/api.git`,
        danglingSha,
      );
      expect(await git(d, 'rev-parse', 'FETCH_HEAD')).toBe(danglingSha);
    }
  });

  it('inflates gzip request bodies before the CGI reads them', async () => {
    // A protocol v2 ls-refs command: pkt-line, delimiter, flush.
    const body = gzipSync(Buffer.from('0014command=ls-refs\n00010000'));
    const res = await fetch(`${server.url}/acme/api.git/git-upload-pack`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-git-upload-pack-request',
        'content-encoding': 'gzip',
        'git-protocol': 'version=2',
      },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-git-upload-pack-result');
    const text = await res.text();
    expect(text).toContain(`${mainSha} refs/heads/main`);
    expect(text).toContain(`${prSha} refs/pull/3/head`);
  });

  it('answers 404 for a repository that does not exist', async () => {
    const res = await fetch(`${server.url}/acme/nope.git/info/refs?service=git-upload-pack`);
    expect(res.status).toBe(404);
  });
});

describe('git http server with a token', () => {
  let server: GitHttpServer;
  beforeAll(async () => {
    server = await startGitHttpServer(root, { token: 'ghs_secret' });
  });
  afterAll(() => server.close());

  it('rejects clones without the token or with a wrong one', async () => {
    const noAuth = await gitFails(
      tmp,
      'clone',
      '-q',
      `${server.url}/acme/api.git`,
      join(tmp, 'clone-noauth'),
    );
    expect(noAuth).toMatch(/Authentication failed|could not read Username/);
    const host = server.url.replace('http://', '');
    await gitFails(
      tmp,
      'clone',
      '-q',
      `http://x-access-token:wrong@${host}/acme/api.git`,
      join(tmp, 'clone-wrong'),
    );
    expect(server.requests.every((r) => r.status === 401)).toBe(true);
  });

  it('clones with x-access-token basic auth and fetches by SHA with an extra header', async () => {
    const host = server.url.replace('http://', '');
    const dest = join(tmp, 'clone-auth');
    await git(tmp, 'clone', '-q', `http://x-access-token:ghs_secret@${host}/acme/api.git`, dest);
    expect(await git(dest, 'rev-parse', 'HEAD')).toBe(mainSha);
    // The form actions/checkout uses: credentials in a header, none in the URL.
    const basic = Buffer.from('x-access-token:ghs_secret').toString('base64');
    await git(
      dest,
      '-c',
      `http.extraHeader=Authorization: Basic ${basic}`,
      'fetch',
      '-q',
      `${server.url}/acme/api.git`,
      prSha,
    );
    expect(await git(dest, 'rev-parse', 'FETCH_HEAD')).toBe(prSha);
    expect(server.requests.filter((r) => r.authorized && r.status === 200).length).toBeGreaterThan(0);
  });
});
