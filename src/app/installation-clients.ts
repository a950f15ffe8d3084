/**
 * One GitHub client per installation, reused: its auth hook renews the token when it expires, so
 * one client serves every request of that installation (Probot would build a new one per call).
 * A failed authentication is forgotten, so the next request tries again.
 */
import type { GitHub } from '../github/octokit.ts';

export class InstallationClients {
  private readonly clients = new Map<number, Promise<GitHub>>();

  constructor(private readonly auth: (installationId: number) => Promise<GitHub>) {}

  get(installationId: number): Promise<GitHub> {
    let c = this.clients.get(installationId);
    if (!c) {
      c = this.auth(installationId);
      c.catch(() => this.clients.delete(installationId));
      this.clients.set(installationId, c);
    }
    return c;
  }
}
