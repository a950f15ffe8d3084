/**
 * A PostgreSQL database of a test's own on the shared test server (scripts/start-postgres.sh,
 * which `npm test`'s pretest starts), created on demand and dropped after. Never another test's
 * or engineer's live database: each name is fresh, and only it is dropped — except the orphans a
 * killed run left behind, swept before each creation.
 *
 * A name says who made it and when: `tandem_t_<pidns>_<pid>_<created, base-36 seconds>_<random>`.
 * An orphan is one whose creating process is gone (same pid namespace, pid not alive) or that is
 * older than an hour (a pid reused since, another namespace, or an older unnamed database, whose
 * age PostgreSQL's own files give). A test file running in parallel has a live pid and a young
 * database, so the sweep never takes it.
 */
import { randomBytes } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import pg from 'pg';

/** The server's admin URL (the script prints it; `TANDEM_PG_ADMIN_URL` overrides). */
export const POSTGRES_ADMIN_URL =
  process.env.TANDEM_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:54329/postgres';

/** A database older than this is an orphan whoever made it. */
export const ORPHAN_AGE_MS = 60 * 60 * 1000;

const PREFIX = 'tandem_t_';

export interface TestDatabase {
  /** `postgres://…/tandem_t_<…>`, for `Store.open` or `DATABASE_URL`. */
  url: string;
  name: string;
  /** Drops it, ending any connection still open to it. */
  drop(): Promise<void>;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  try {
    await c.connect();
  } catch (e) {
    throw new Error(
      `the PostgreSQL test server at ${POSTGRES_ADMIN_URL} does not answer (${(e as Error).message}): start it with \`bash scripts/start-postgres.sh\` (npm test's pretest does)`,
    );
  }
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** This process's pid namespace (its inode), so a pid is only judged where it means something. */
function pidNamespace(): string {
  try {
    return /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? '0';
  } catch {
    return '0';
  }
}

/** The name a database made by `pid` at `createdAt` gets. */
export function testDatabaseName(owner: { pid: number; createdAt: Date; pidns?: string }): string {
  const secs = Math.floor(owner.createdAt.getTime() / 1000).toString(36);
  return `${PREFIX}${owner.pidns ?? pidNamespace()}_${owner.pid}_${secs}_${randomBytes(4).toString('hex')}`;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, someone else's.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Why `name` is an orphan, or undefined when it may be in use. */
export function orphanReason(
  name: string,
  createdAt: Date | undefined,
  now = new Date(),
  isAlive: (pid: number) => boolean = alive,
): string | undefined {
  const m = /^tandem_t_(\d+)_(\d+)_([0-9a-z]+)_[0-9a-f]+$/.exec(name);
  const born = m ? new Date(Number.parseInt(m[3]!, 36) * 1000) : createdAt;
  if (born && now.getTime() - born.getTime() > ORPHAN_AGE_MS) return 'older than an hour';
  if (m && m[1] === pidNamespace() && !isAlive(Number(m[2]))) return `its creator (pid ${m[2]}) is gone`;
  return undefined;
}

/** Drops the orphans of killed runs; returns their names. Never throws for a lost race. */
export async function sweepOrphanDatabases(): Promise<string[]> {
  return admin(async (c) => {
    // The creation time of a database whose name does not carry it: its folder's first file.
    const { rows } = await c.query<{ datname: string; created: Date | null }>(
      `SELECT datname, (pg_stat_file('base/' || oid || '/PG_VERSION', true)).modification AS created
         FROM pg_database WHERE datname LIKE 'tandem\\_t\\_%'`,
    );
    const dropped: string[] = [];
    for (const { datname, created } of rows) {
      if (!orphanReason(datname, created ?? undefined)) continue;
      try {
        await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
        dropped.push(datname);
      } catch {
        // Another sweep dropped it first.
      }
    }
    return dropped;
  });
}

export async function createTestDatabase(): Promise<TestDatabase> {
  await sweepOrphanDatabases();
  const name = testDatabaseName({ pid: process.pid, createdAt: new Date() });
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
