/**
 * One GitHub port per installation, reused: the client underneath renews its token when it
 * expires (its auth hook), so one client serves every request of that installation (Probot would
 * build a new one per call). Rooms get the port (`port/github-port.ts`); the rooms not on it yet
 * (publishing, `/tandem merge`) reach the same client through its `octokit`.
 * A failed authentication is forgotten, so the next request tries again.
 */
import type { GitHub } from '../github/octokit.ts';
import type { GitHubPort } from './port/github-port.ts';
import { octokitPort } from './port/octokit-port.ts';

export class InstallationClients {
  private readonly ports = new Map<number, Promise<GitHubPort>>();

  constructor(private readonly auth: (installationId: number) => Promise<GitHub>) {}

  get(installationId: number): Promise<GitHubPort> {
    let p = this.ports.get(installationId);
    if (!p) {
      p = this.auth(installationId).then(octokitPort);
      p.catch(() => this.ports.delete(installationId));
      this.ports.set(installationId, p);
    }
    return p;
  }
}
