/**
 * What the App's unit tests share: a store on a fresh SQLite file or PostgreSQL database
 * (closed and removed after each test) and a client of the GitHub stand-in as the App builds one.
 */
import { join } from 'node:path';
import { tandemOctokit } from '../../src/app/octokit.ts';
import { type EvaluationVerdict, Store } from '../../src/app/store/store.ts';
import type { GitHub } from '../../src/github/octokit.ts';
import { lazyTempDir, useCleanup } from '../helpers/test-cleanup.ts';
import { type StandIn, startGitHubStandIn } from '../support/github-standin/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.ts';

/** The store's backends: every store test runs on each (`describe.each(STORE_BACKENDS)`). */
export const STORE_BACKENDS = ['sqlite', 'postgres'] as const;
export type StoreBackend = (typeof STORE_BACKENDS)[number];

export interface TempStore {
  /** Opens the test's database (creating it); opening again reopens the same one. */
  open(): Promise<Store>;
  /** The database: a SQLite file (created with its folder on first use) or a PostgreSQL URL. */
  target(): Promise<string>;
  /** The SQLite file (on the `sqlite` backend only). */
  file(): Promise<string>;
}

/**
 * Registers the cleanup (stores closed, the file or the test's own PostgreSQL database removed
 * after each test); call at the top of a test file or of a `describe.each(STORE_BACKENDS)` block.
 */
export function useTempStore(prefix = 'tandem-app-', backend: StoreBackend = 'sqlite'): TempStore {
  const cleanup = useCleanup();
  const dir = lazyTempDir(cleanup, prefix);
  let database: Promise<TestDatabase> | undefined;
  const file = async () => {
    if (backend !== 'sqlite') throw new Error(`file(): the ${backend} backend has no file`);
    return join(await dir(), 'tandem.db');
  };
  const target = async () => {
    if (backend === 'sqlite') return file();
    if (!database) {
      const created = createTestDatabase();
      database = created;
      // Registered first, so dropped last: after the stores opened on it are closed.
      cleanup(async () => {
        database = undefined;
        await (await created).drop();
      });
    }
    return (await database).url;
  };
  return {
    file,
    target,
    async open() {
      const s = await Store.open(await target());
      cleanup(async () => await s.close());
      return s;
    },
  };
}

/** An installation client of the stand-in, with the App's Octokit (throttling, retries). */
export function standInClient(standIn: StandIn, owner = 'acme'): GitHub {
  return new (tandemOctokit({ writeSpacingMs: 0 }))({
    auth: { token: standIn.mintToken(standIn.installationId(owner)) },
    baseUrl: standIn.apiUrl,
  }) as unknown as GitHub;
}

/**
 * A running evaluation of `members` (PR keys, each at head `headSha`), seeded by the first one:
 * where the App's tests start when they need one in the store.
 */
export async function runningEvaluation(
  store: Store,
  members: readonly string[] = ['acme/api#1'],
  opts: { installationId?: number; headSha?: string } = {},
): Promise<number> {
  const seed = members[0]!;
  const id = await store.evaluations.create({
    setKey: seed,
    seed,
    installationId: opts.installationId ?? 1,
    matrix: null,
  });
  await store.evaluations.start(id);
  await store.evaluations.setMembers(
    id,
    members.map((key) => ({ key, headSha: opts.headSha ?? 'a'.repeat(40) })),
  );
  return id;
}

/** `runningEvaluation`, then published with `verdict` recorded (what `/tandem merge` follows). */
export async function publishedEvaluation(
  store: Store,
  verdict: EvaluationVerdict,
  members?: readonly string[],
  opts: { installationId?: number } = {},
): Promise<number> {
  const id = await runningEvaluation(store, members, opts);
  await store.evaluations.recordVerdict(id, verdict);
  await store.evaluations.publish(id);
  return id;
}

export interface StandInUse {
  /** Starts the test's GitHub stand-in (closed after the test). */
  start(opts?: Parameters<typeof startGitHubStandIn>[0]): Promise<StandIn>;
  /** The test's temporary folder (created on first use, removed after the test). */
  dir(): Promise<string>;
}

/** Registers the cleanup of a stand-in and a temporary folder; call at the top of a test file. */
export function useStandIn(prefix = 'tandem-standin-'): StandInUse {
  const cleanup = useCleanup();
  const dir = lazyTempDir(cleanup, prefix);
  return {
    async start(opts) {
      const standIn = await startGitHubStandIn(opts);
      cleanup(() => standIn.close());
      return standIn;
    },
    dir,
  };
}

/** acme/api#1 ('Total', branch `feature` onto `main`) in the stand-in, at `headSha` on `baseSha`. */
export function addApiPull(standIn: StandIn, headSha: string, baseSha: string) {
  return standIn.addPullRequest({
    owner: 'acme',
    repo: 'api',
    title: 'Total',
    body: '',
    headRef: 'feature',
    headSha,
    baseRef: 'main',
    baseSha,
  });
}

/** The suite the App unit tests evaluate with (`s/suite.yml` of acme/suites), plus `extra` lines. */
export const UNIT_SUITE = (extra = '') => `name: s
image: tandem/sandbox:node20
tests:
  - name: t
    files: [hidden/t.test.js]
    run: node --test
    results: { format: junit, path: t.xml }
${extra}`;
