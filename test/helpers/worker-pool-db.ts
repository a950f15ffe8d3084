/**
 * A PostgreSQL database of the test's own on the shared server `scripts/start-postgres.sh` runs
 * (started idempotently here): test/support/postgres-database.ts names it after this process,
 * drops it after, and sweeps the ones killed runs left behind.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase as create, type TestDatabase } from '../support/postgres-database.ts';

export type { TestDatabase };

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `_label`: kept for callers that named a prefix; the name now says who made it and when. */
export async function createTestDatabase(_label?: string): Promise<TestDatabase> {
  execFileSync('bash', [path.join(ROOT, 'scripts/start-postgres.sh')], { encoding: 'utf8' });
  return create();
}
