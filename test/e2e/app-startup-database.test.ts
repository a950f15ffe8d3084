/**
 * `npm start` (src/app/main.ts, as its own process) with a DATABASE_URL it cannot use: nothing
 * listening at the address, a host that never answers, a password the server refuses, a role or a
 * database that does not exist, a URL that is not PostgreSQL's. Each time the process says so in
 * one line naming DATABASE_URL, never prints the password, prints no stack trace, and exits 1
 * before it listens.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/example-cases.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';
import { appKeys } from '../support/app-keys.ts';
import { POSTGRES_ADMIN_URL } from '../support/postgres-database.ts';
import { type RefusingServer, startRefusingServer } from '../support/postgres-refusing-server.ts';

const PASSWORD = 'pw-s3cret-do-not-print';
const MAIN = path.join(REPO_ROOT, 'src', 'app', 'main.ts');
const TSX = pathToFileURL(path.join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

let dir: string;
let refusing: RefusingServer;
let silent: RefusingServer;
beforeAll(async () => {
  dir = await makeTempDir('tandem-app-startup-');
  refusing = await startRefusingServer('refuse-password');
  silent = await startRefusingServer('silent');
});
afterAll(async () => {
  await refusing?.close();
  await silent?.close();
  await removeTempDir(dir);
});

/** A loopback port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

/** The shared test server's URL for `user` and `database`, with the password set. */
function onTestServer(user: string, database: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.username = user;
  url.password = PASSWORD;
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs the App's entry point with `databaseUrl` until it exits (it must: nothing else stops it). */
async function start(databaseUrl: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', TSX, MAIN], {
    // Its own folder: main.ts reads a .env from the working directory.
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      APP_ID: '4242',
      PRIVATE_KEY: appKeys().privateKeyPem,
      WEBHOOK_SECRET: 'x',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'fatal',
      TANDEM_DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: databaseUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

describe('App startup with a DATABASE_URL it cannot use', () => {
  it.each([
    [
      'nothing listens at the address',
      async () => `postgres://tandem:${PASSWORD}@127.0.0.1:${await closedPort()}/tandem`,
      /no PostgreSQL server answers at 127\.0\.0\.1:\d+/,
    ],
    [
      'the host never answers',
      async () => `postgres://tandem:${PASSWORD}@127.0.0.1:${silent.port}/tandem?connect_timeout=1`,
      /no answer from 127\.0\.0\.1:\d+ within 1 s/,
    ],
    [
      'the server refuses the password',
      async () => `postgres://tandem:${PASSWORD}@127.0.0.1:${refusing.port}/tandem`,
      /the server refused the password for user "tandem"/,
    ],
    [
      'the role does not exist',
      async () => onTestServer('no_such_role_t', 'postgres'),
      /the server refused user "no_such_role_t"/,
    ],
    [
      'the database does not exist',
      async () => onTestServer('postgres', 'tandem_never_created_t'),
      /database "tandem_never_created_t" does not exist/,
    ],
    [
      'it is not a PostgreSQL URL',
      async () => `mysql://tandem:${PASSWORD}@127.0.0.1/tandem`,
      /a postgres:\/\/ or postgresql:\/\/ URL/,
    ],
  ])('%s: one line naming DATABASE_URL, no password, no trace, exit 1', async (_case, url, why) => {
    const { code, stdout, stderr } = await start(await url());
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Tandem cannot start: .*DATABASE_URL/);
    expect(stderr).toMatch(why);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stdout + stderr).not.toContain(PASSWORD);
    expect(stdout).not.toContain('listening');
  });
});
