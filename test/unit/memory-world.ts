/**
 * The App's decisions on the in-memory GitHub port (test/support/memory-github.ts): what the unit
 * tests of linking and webhooks share.
 */
import { recordOpenPull } from '../../src/app/linking/record-pull.ts';
import { resolveLinkedSet } from '../../src/app/linking/resolve-set.ts';
import type { OrgConfig } from '../../src/core/org-config.schema.ts';
import { parseOrgConfig } from '../../src/github/org-config.ts';
import { MemoryGitHub, type MemoryPull } from '../support/memory-github.ts';
import type { TempStore } from './app-fixtures.ts';

export const INSTALLATION = 7;
const log = { warn: () => {} };

/** An org configuration with one suite over `repos` (default acme/api, schema, web), plus `extra` lines. */
export function orgConfig(opts: { repos?: string[]; extra?: string } = {}): OrgConfig {
  const repos = opts.repos ?? ['acme/api', 'acme/schema', 'acme/web'];
  const load = parseOrgConfig(`evaluator: acme/suites
suites:
  - name: s
    repos: [${repos.join(', ')}]
    path: s/suite.yml
${opts.extra ?? ''}`);
  if (load.kind !== 'ok') throw new Error(`test config: ${JSON.stringify(load)}`);
  return load.config;
}

/**
 * A store on a temporary SQLite file and the in-memory GitHub with acme's repositories; PRs put
 * on GitHub alone or opened (their webhook recorded), and the linked set resolved around a seed.
 */
export async function memoryWorld(temp: TempStore, config = orgConfig()) {
  const store = await temp.open();
  const gh = new MemoryGitHub()
    .addRepo('acme/api')
    .addRepo('acme/schema')
    .addRepo('acme/web')
    .addRepo('acme/suites', { visibility: 'private' });
  return {
    store,
    gh,
    /** A PR on GitHub that no webhook brought (the index has not seen it). */
    onGitHub: (p: MemoryPull) => gh.addPull(p),
    /** A PR opened with its webhook delivered: indexed, and who may confirm its links asked. */
    opened: async (p: MemoryPull) => {
      const info = gh.addPull(p);
      await recordOpenPull(gh, store, info, INSTALLATION, true, log);
      return info;
    },
    resolve: (seed: string) => resolveLinkedSet(gh, store, INSTALLATION, seed, config, config.suites[0]!),
  };
}
