/**
 * Git over smart HTTP on loopback: a node:http server in front of git's own CGI, `git http-backend`.
 *
 * Public API:
 * - `startGitHttpServer(rootDir, opts?) => Promise<GitHttpServer>`
 *   - serves every repository under `rootDir` (bare `acme/api.git` → `<url>/acme/api.git`);
 *   - `opts.token`: when set, requests must carry basic auth whose password is the token (GitHub's
 *     form is `x-access-token:<token>`); others get 401 with `WWW-Authenticate: Basic`;
 *   - `opts.allowPush`: enables receive-pack (off by default: tests set repositories up on disk).
 *   - `GitHttpServer` = `{ url, requests, close() }`; `requests` logs `{method, path, status, authorized}`.
 *
 * Served repositories behave as GitHub's for fetch-by-SHA: the backend runs with
 * `uploadpack.allowReachableSHA1InWant` and `uploadpack.allowAnySHA1InWant` set (through
 * `GIT_CONFIG_COUNT`, so the repositories on disk are untouched), so `git fetch <url> <sha>` works.
 * Pull request refs are plain refs: create them in the bare repository with
 * `git update-ref refs/pull/<n>/head <sha>` and clients fetch `refs/pull/<n>/head` as on GitHub.
 * Gzip request bodies (git sends them for large negotiations) are inflated before the CGI sees them.
 *
 * The server runs in the test's own process: drive git against it with async child processes
 * (`execFile`), never `execFileSync`, which blocks the event loop the server needs and deadlocks.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';

export interface GitHttpServerOptions {
  token?: string;
  allowPush?: boolean;
}

export interface GitHttpRequestLog {
  method: string;
  path: string;
  status: number;
  authorized: boolean;
}

export interface GitHttpServer {
  url: string;
  requests: GitHttpRequestLog[];
  close(): Promise<void>;
}

let backendPath: string | undefined;
function httpBackend(): string {
  backendPath ??= join(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(), 'git-http-backend');
  return backendPath;
}

function basicPassword(header: string | undefined): { user: string; password: string } | undefined {
  const m = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1] ?? '', 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  return i < 0 ? undefined : { user: decoded.slice(0, i), password: decoded.slice(i + 1) };
}

export async function startGitHttpServer(
  rootDir: string,
  opts: GitHttpServerOptions = {},
): Promise<GitHttpServer> {
  const backend = httpBackend();
  const children = new Set<ChildProcess>();
  const requests: GitHttpRequestLog[] = [];

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const log: GitHttpRequestLog = {
      method: req.method ?? 'GET',
      path: url.pathname,
      status: 0,
      authorized: false,
    };
    requests.push(log);
    const creds = basicPassword(req.headers.authorization);
    if (opts.token !== undefined && creds?.password !== opts.token) {
      log.status = 401;
      res.writeHead(401, { 'www-authenticate': 'Basic realm="tandem-git"', 'content-type': 'text/plain' });
      res.end('Authentication failed\n');
      return;
    }
    log.authorized = creds !== undefined;

    const gzip = /gzip/i.test(String(req.headers['content-encoding'] ?? ''));
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      GIT_PROJECT_ROOT: rootDir,
      GIT_HTTP_EXPORT_ALL: '1',
      GATEWAY_INTERFACE: 'CGI/1.1',
      SERVER_PROTOCOL: 'HTTP/1.1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.replace(/^\?/, ''),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_COUNT: '4',
      GIT_CONFIG_KEY_0: 'uploadpack.allowReachableSHA1InWant',
      GIT_CONFIG_VALUE_0: 'true',
      GIT_CONFIG_KEY_1: 'uploadpack.allowAnySHA1InWant',
      GIT_CONFIG_VALUE_1: 'true',
      GIT_CONFIG_KEY_2: 'http.receivepack',
      GIT_CONFIG_VALUE_2: opts.allowPush ? 'true' : 'false',
      GIT_CONFIG_KEY_3: 'uploadpack.allowFilter',
      GIT_CONFIG_VALUE_3: 'true',
    };
    // We inflate gzip bodies ourselves, so the length the client sent no longer applies.
    if (!gzip && req.headers['content-length']) env.CONTENT_LENGTH = req.headers['content-length'];
    if (req.headers['git-protocol']) env.GIT_PROTOCOL = String(req.headers['git-protocol']);
    if (creds) env.REMOTE_USER = creds.user;

    const child = spawn(backend, [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    children.add(child);
    child.on('close', () => children.delete(child));
    const stderr: Buffer[] = [];
    child.stderr.on('data', (d: Buffer) => stderr.push(d));
    child.stdin.on('error', () => {
      // The backend may exit before reading all input (e.g. on a bad request); its answer says why.
    });
    (gzip ? req.pipe(createGunzip()) : req).pipe(child.stdin);

    // CGI output: header lines, a blank line, then the body, which we stream through.
    let head = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const crlf = head.indexOf('\r\n\r\n');
      const lf = head.indexOf('\n\n');
      const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf : lf;
      if (end < 0) return;
      const sepLen = end === crlf ? 4 : 2;
      const lines = head.subarray(0, end).toString('latin1').split(/\r?\n/);
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        if (i < 0) continue;
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200;
        else headers[name] = value;
      }
      headersDone = true;
      log.status = status;
      res.writeHead(status, headers);
      const rest = head.subarray(end + sepLen);
      if (rest.length > 0) res.write(rest);
    });
    child.on('close', (code) => {
      if (!headersDone) {
        log.status = 500;
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`git http-backend exited ${code}: ${Buffer.concat(stderr).toString('utf8')}`);
        return;
      }
      res.end();
    });
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close() {
      for (const child of children) child.kill('SIGKILL');
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
