import { describe, expect, it } from 'vitest';
import { InstallationClients } from '../../src/app/installation-clients.ts';
import type { GitHubPort } from '../../src/app/port/github-port.ts';

describe('InstallationClients', () => {
  it('authenticates once per installation and shares the port', async () => {
    const calls: number[] = [];
    const clients = new InstallationClients(async (id) => {
      calls.push(id);
      return { id } as unknown as GitHubPort;
    });
    const [a, b, c] = await Promise.all([clients.get(1), clients.get(1), clients.get(2)]);
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(calls).toEqual([1, 2]);
    expect(a).toEqual({ id: 1 });
    expect(c).toEqual({ id: 2 });
  });

  it('forgets a failed authentication so the next request tries again', async () => {
    let attempts = 0;
    const clients = new InstallationClients(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('token endpoint down');
      return {} as GitHubPort;
    });
    await expect(clients.get(7)).rejects.toThrow('token endpoint down');
    await expect(clients.get(7)).resolves.toBeDefined();
    expect(attempts).toBe(2);
  });
});
