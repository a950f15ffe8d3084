/**
 * One GitHub port per installation, reused: the client underneath renews its token when it
 * expires (its auth hook), so one client serves every request of that installation (Probot would
 * build a new one per call). `connect` builds the port (the App's Probot wiring, `index.ts`, puts
 * it over Probot's installation client); rooms only ever see the port (`port/github-port.ts`).
 * A failed authentication is forgotten, so the next request tries again.
 */
import type { GitHubPort } from './port/github-port.ts';

export class InstallationClients {
  private readonly ports = new Map<number, Promise<GitHubPort>>();

  constructor(private readonly connect: (installationId: number) => Promise<GitHubPort>) {}

  get(installationId: number): Promise<GitHubPort> {
    let p = this.ports.get(installationId);
    if (!p) {
      p = this.connect(installationId);
      p.catch(() => this.ports.delete(installationId));
      this.ports.set(installationId, p);
    }
    return p;
  }
}
