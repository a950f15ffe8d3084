/**
 * What the App's unit tests share: a store on a fresh SQLite file (closed and removed after
 * each test) and a client of the GitHub stand-in as the App builds one.
 */
import { join } from 'node:path';
import { tandemOctokit } from '../../src/app/octokit.ts';
import { type EvaluationVerdict, Store } from '../../src/app/store/store.ts';
import type { GitHub } from '../../src/github/octokit.ts';
import { lazyTempDir, useCleanup } from '../helpers/test-cleanup.ts';
import { type StandIn, startGitHubStandIn } from '../support/github-standin/index.ts';

export interface TempStore {
  /** Opens the test's database file (creating it); opening again reopens the same file. */
  open(): Promise<Store>;
  /** The database file (created with its folder on first use). */
  file(): Promise<string>;
}

/** Registers the cleanup; call at the top of a test file. */
export function useTempStore(prefix = 'tandem-app-'): TempStore {
  const cleanup = useCleanup();
  const dir = lazyTempDir(cleanup, prefix);
  const file = async () => join(await dir(), 'tandem.db');
  return {
    file,
    async open() {
      const s = await Store.open(await file());
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
