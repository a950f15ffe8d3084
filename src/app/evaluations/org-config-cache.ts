/**
 * Each installation's `tandem.yml`, loaded once and shared. Webhooks decide from a recent copy
 * whether to mark a check queued (a burst of deliveries shares one load); an evaluation always
 * reads it fresh and the cache keeps that read; `installation` events forget it. A failed load
 * is forgotten at once so the next caller tries again.
 */
import type { OrgConfig } from '../../core/org-config.schema.ts';
import type { OrgConfigLoad } from '../../github/org-config.ts';
import type { GitHubPort } from '../port/github-port.ts';

export interface OrgConfigCacheOptions {
  /** How long a load answers `recent` without asking GitHub again. */
  ttlMs: number;
  load?: (gh: GitHubPort, org: string) => Promise<OrgConfigLoad>;
  now?: () => number;
}

interface Entry {
  load: Promise<OrgConfigLoad>;
  at: number;
}

export class OrgConfigCache {
  private readonly entries = new Map<number, Entry>();
  /** The last valid configuration per installation, for synchronous readers (`config`). */
  private readonly lastValid = new Map<number, OrgConfig>();
  private readonly load: (gh: GitHubPort, org: string) => Promise<OrgConfigLoad>;
  private readonly now: () => number;

  constructor(private readonly opts: OrgConfigCacheOptions) {
    this.load = opts.load ?? ((gh, org) => gh.orgConfig(org));
    this.now = opts.now ?? Date.now;
  }

  /** The cached load when younger than the TTL (or in flight), else a new one. */
  recent(gh: GitHubPort, installationId: number, org: string): Promise<OrgConfigLoad> {
    const e = this.entries.get(installationId);
    if (e && this.now() - e.at < this.opts.ttlMs) return e.load;
    return this.fresh(gh, installationId, org);
  }

  /** A new load, which becomes the cached one. */
  fresh(gh: GitHubPort, installationId: number, org: string): Promise<OrgConfigLoad> {
    const entry: Entry = { load: this.load(gh, org), at: this.now() };
    this.entries.set(installationId, entry);
    entry.load.then(
      (l) => {
        if (this.entries.get(installationId) !== entry) return;
        if (l.kind === 'ok') this.lastValid.set(installationId, l.config);
        else this.lastValid.delete(installationId);
      },
      () => {
        if (this.entries.get(installationId) === entry) this.entries.delete(installationId);
      },
    );
    return entry.load;
  }

  /** The configuration the latest settled load found valid, whatever its age (undefined when invalid or missing). */
  config(installationId: number): OrgConfig | undefined {
    return this.lastValid.get(installationId);
  }

  invalidate(installationId: number): void {
    this.entries.delete(installationId);
  }
}
