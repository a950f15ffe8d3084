/**
 * Where the egress proxy may dial for a requested `host:port`: only hosts the suite allows
 * (core/prepare-egress.ts), resolved here, never to host loopback or link-local addresses.
 * Answers are cached per proxy, at most CACHE_SIZE names: a prepare opening a thousand
 * connections to one registry asks the resolver once, not a thousand times at once (each
 * lookup holds a thread and a socket), and a prepare naming endless hosts cannot grow the cache.
 */
import { lookup } from 'node:dns/promises';
import { egressAllowed, forbiddenAddress } from '../../core/prepare-egress.ts';

const CACHE_SIZE = 256;

/** Returns a resolver: the address to dial, or undefined (refused). */
export function egressResolver(
  allow: readonly string[],
): (host: string, port: number) => Promise<string | undefined> {
  const cache = new Map<string, Promise<string | undefined>>();
  const resolveName = async (host: string): Promise<string | undefined> => {
    try {
      const addresses = await lookup(host, { all: true });
      // One forbidden address refuses the name: no picking the harmless one by luck.
      if (addresses.length === 0 || addresses.some((a) => forbiddenAddress(a.address))) return undefined;
      return addresses[0]!.address;
    } catch {
      return undefined;
    }
  };
  return (host, port) => {
    if (!Number.isInteger(port) || port <= 0 || port > 65535 || !egressAllowed(allow, host, port))
      return Promise.resolve(undefined);
    const name = host.toLowerCase();
    let answer = cache.get(name);
    if (!answer) {
      // The oldest name goes first (a Map keeps insertion order).
      if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
      answer = resolveName(name);
      cache.set(name, answer);
    }
    return answer;
  };
}
