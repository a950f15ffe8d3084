/**
 * Where `prepare` may connect: the package registries a suite allows (`prepare.<repo>.network.allow`),
 * nothing else. An entry is a host name (`registry.npmjs.org`, ports 443 and 80), a wildcard
 * for its subdomains (`*.example.com`, not the domain itself) or `host:port`. Host loopback,
 * unspecified and link-local addresses are never reached, whatever a name resolves to (a
 * registry name pointed at 127.0.0.1 must not open the evaluator's own services).
 */
import { z } from 'zod';
import { DEFAULT_EGRESS_LIMITS, egressLimitsSchema } from './egress-limits.ts';

/** The public registries of the ecosystems Tandem's images serve: npm, PyPI, the Go module proxy. */
export const DEFAULT_PREPARE_EGRESS = [
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'pypi.org',
  'files.pythonhosted.org',
  'proxy.golang.org',
  'sum.golang.org',
] as const;

export const egressHostSchema = z
  .string()
  .regex(
    /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i,
    'expected a host name, "*.domain" or "host:port"',
  );

export const prepareNetworkSchema = z
  .object({
    /** Hosts the prepare commands may reach, through Tandem's egress proxy; nothing else. */
    allow: z.array(egressHostSchema).default([...DEFAULT_PREPARE_EGRESS]),
    /** What one prepare may hold through the proxy (core/egress-limits.ts); each may only be lowered. */
    limits: egressLimitsSchema.default(() => ({ ...DEFAULT_EGRESS_LIMITS })),
  })
  .strict();

/** The network a prepare gets when the suite says nothing. */
export const defaultPrepareNetwork = () => ({
  allow: [...DEFAULT_PREPARE_EGRESS],
  limits: { ...DEFAULT_EGRESS_LIMITS },
});

const DEFAULT_PORTS = new Set([443, 80]);

/** Is `host:port` (as a CONNECT or proxy request names it) allowed by the list? */
export function egressAllowed(allow: readonly string[], host: string, port: number): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return allow.some((entry) => {
    const [pattern, p] = entry.toLowerCase().split(':') as [string, string | undefined];
    const portOk = p === undefined ? DEFAULT_PORTS.has(port) : Number(p) === port;
    if (!portOk) return false;
    if (pattern.startsWith('*.')) return name.endsWith(pattern.slice(1)) && name.length > pattern.length - 1;
    return name === pattern;
  });
}

/** Addresses a prepare never reaches: this machine (loopback, unspecified) and link-local (cloud metadata). */
export function forbiddenAddress(address: string): boolean {
  const a = address.toLowerCase();
  const v4 = /^(?:::ffff:)?(\d+)\.(\d+)\.\d+\.\d+$/.exec(a);
  if (v4) {
    const [first, second] = [Number(v4[1]), Number(v4[2])];
    return first === 127 || first === 0 || (first === 169 && second === 254);
  }
  // IPv4-mapped in hex (::ffff:7f00:1): 127/8, 0/8, 169.254/16.
  if (/^::ffff:(7f|0{0,2}[0-9a-f]?[0-9a-f]?:|a9fe)/.test(a) && !a.includes('.')) return true;
  return a === '::1' || a === '::' || /^fe[89ab]/.test(a);
}
