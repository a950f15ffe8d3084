/**
 * What the App's unit tests share: a store on a fresh SQLite file (closed and removed after
 * each test) and a client of the GitHub stand-in as the App builds one.
 */
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { tandemOctokit } from '../../src/app/octokit.ts';
import { Store } from '../../src/app/store/store.ts';
import type { GitHub } from '../../src/github/octokit.ts';
import { makeTempDir, removeTempDir } from '../helpers/git-fixtures.ts';
import type { StandIn } from '../support/github-standin/index.ts';

export interface TempStore {
  /** Opens the test's database file (creating it); opening again reopens the same file. */
  open(): Promise<Store>;
  /** The database file (created with its folder on first use). */
  file(): Promise<string>;
}

/** Registers the cleanup; call at the top of a test file. */
export function useTempStore(prefix = 'tandem-app-'): TempStore {
  let dir: string | undefined;
  const opened: Store[] = [];
  afterEach(async () => {
    for (const s of opened.splice(0)) s.close();
    if (dir) await removeTempDir(dir);
    dir = undefined;
  });
  const file = async () => {
    dir ??= await makeTempDir(prefix);
    return join(dir, 'tandem.db');
  };
  return {
    file,
    async open() {
      const s = await Store.open(await file());
      opened.push(s);
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
