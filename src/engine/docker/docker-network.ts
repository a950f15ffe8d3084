import { createDockerClient } from './docker-client.ts';

/**
 * The network `prepare` containers use: `bridge` where the engine has one, else `host` (an engine
 * started with --bridge=none, as on machines without iptables). Setup and tests never get one.
 */
export async function detectPrepareNetwork(): Promise<string> {
  try {
    const networks = await createDockerClient().listNetworks();
    return networks.some((n) => n.Name === 'bridge') ? 'bridge' : 'host';
  } catch {
    return 'bridge';
  }
}
