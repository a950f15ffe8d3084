/**
 * The first connection to the database DATABASE_URL names, made before the App takes any work:
 * whatever stops it (nothing answers at the address, the server refuses the user or password, the
 * database does not exist, no answer at all within the connect timeout) becomes one sentence that
 * names DATABASE_URL and shows the URL without its password.
 */
import { StoreUnavailableError } from './store-driver.ts';

type Pg = typeof import('pg')['default'];

/** libpq's `connect_timeout` (seconds) in the URL's query, else this; 0 would wait forever. */
const DEFAULT_CONNECT_TIMEOUT_S = 10;

/** The URL with its password masked, for messages. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the PostgreSQL URL (does not parse)';
  }
}

function connectTimeoutMs(url: URL | undefined): number {
  const s = Number(url?.searchParams.get('connect_timeout') ?? DEFAULT_CONNECT_TIMEOUT_S);
  return (Number.isFinite(s) && s > 0 ? s : DEFAULT_CONNECT_TIMEOUT_S) * 1000;
}

/** Connects once and runs `SELECT 1`; throws a StoreUnavailableError saying why it could not. */
export async function probePostgres(pg: Pg, url: string): Promise<void> {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const timeoutMs = connectTimeoutMs(parsed);
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (e) {
    throw new StoreUnavailableError(`DATABASE_URL (${shownUrl(url)}): ${explain(e, parsed, timeoutMs)}`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Why the connection failed, in the operator's terms, with the driver's own words after it. */
function explain(e: unknown, url: URL | undefined, timeoutMs: number): string {
  const err = e as { code?: string; message?: string };
  const raw = scrub(err.message ?? String(e), url);
  const at = url ? `${url.hostname}:${url.port || 5432}` : 'the address it names';
  const user = url?.username ? decodeURIComponent(url.username) : 'the connecting user';
  const database = url ? decodeURIComponent(url.pathname.slice(1)) || user : 'the database';
  switch (err.code) {
    case 'ECONNREFUSED':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `no PostgreSQL server answers at ${at} (${raw})`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host ${url?.hostname ?? ''} does not resolve (${raw})`;
    case '28P01':
      return `the server refused the password for user "${user}" (${raw})`;
    case '28000':
      return `the server refused user "${user}" (${raw})`;
    case '3D000':
      return `database "${database}" does not exist on the server at ${at}: create it (createdb ${database}) or name another`;
  }
  if (/timeout/i.test(raw))
    return `no answer from ${at} within ${timeoutMs / 1000} s (connect_timeout in the URL sets the wait; ${raw})`;
  return `cannot connect to the PostgreSQL server at ${at} (${raw})`;
}

/** The driver's message with the password taken out, should it ever quote it. */
function scrub(message: string, url: URL | undefined): string {
  const password = url?.password ? decodeURIComponent(url.password) : '';
  return password ? message.split(password).join('***') : message;
}
