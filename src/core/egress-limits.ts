/**
 * What one prepare may hold through its egress proxy (issue 30). PR code runs the prepare, so
 * without bounds it could open connections until Tandem's own process has no file descriptor
 * left and turn its failure into an infrastructure error. Past a bound the proxy refuses or
 * cuts that connection; the prepare may then fail, which is the PR's doing. A suite may only
 * lower a bound (`prepare.<repo>.network.limits`), never raise it: the defaults are what keeps
 * the host safe. Pure.
 */
import { z } from 'zod';

export const DEFAULT_EGRESS_LIMITS = {
  /** Connections open at once (client side; each open tunnel also holds one upstream socket). */
  connections: 64,
  /** Connections over the whole prepare. */
  total_connections: 4096,
  /** Bytes both ways over the whole prepare (4 GiB). */
  bytes: 4 * 1024 ** 3,
  /** A connection with no byte either way for this long is closed. */
  idle_seconds: 60,
  /** A connection open this long is closed, busy or not. */
  connection_seconds: 600,
  /** Request line and headers of one proxy request. */
  header_bytes: 16_384,
  /** Time to send the request line and headers. */
  header_seconds: 10,
} as const;

export type EgressLimitName = keyof typeof DEFAULT_EGRESS_LIMITS;
export type EgressLimits = { [K in EgressLimitName]: number };

const NAMES = Object.keys(DEFAULT_EGRESS_LIMITS) as EgressLimitName[];

/** A positive whole number no higher than the default: a suite may tighten, not loosen. */
const lowerOnly = (name: EgressLimitName) =>
  z
    .number()
    .int(`expected a whole number for ${name}`)
    .positive(`expected a positive ${name}`)
    .max(DEFAULT_EGRESS_LIMITS[name], {
      error: `${name} may only lower the default (${DEFAULT_EGRESS_LIMITS[name]}), not raise it`,
    })
    .default(DEFAULT_EGRESS_LIMITS[name]);

export const egressLimitsSchema = z
  .object({
    connections: lowerOnly('connections'),
    total_connections: lowerOnly('total_connections'),
    bytes: lowerOnly('bytes'),
    idle_seconds: lowerOnly('idle_seconds'),
    connection_seconds: lowerOnly('connection_seconds'),
    header_bytes: lowerOnly('header_bytes'),
    header_seconds: lowerOnly('header_seconds'),
  })
  .strict();

/**
 * Why the proxy refused or cut connections: one of the limits, or `descriptors` (the share of
 * the host's file descriptors all proxies together may hold was used up).
 */
export type EgressRefusal = EgressLimitName | 'descriptors';

/** How many connections each reason refused or closed; absent or 0: that bound was never hit. */
export type EgressRefusals = Partial<Record<EgressRefusal, number>>;

const WHAT: Record<EgressLimitName, (n: number) => string> = {
  connections: (n) => `${n} connections at once`,
  total_connections: (n) => `${n} connections in all`,
  bytes: (n) => `${n} bytes in all`,
  idle_seconds: (n) => `${n}s idle per connection`,
  connection_seconds: (n) => `${n}s per connection`,
  header_bytes: (n) => `${n} bytes of request headers`,
  header_seconds: (n) => `${n}s to send request headers`,
};

/**
 * One line naming every bound that was hit, for the prepare's output (so a failed prepare says
 * why), or '' when none was.
 */
export function egressLimitNote(limits: EgressLimits, refusals: EgressRefusals): string {
  const parts: string[] = [];
  for (const name of NAMES) {
    const n = refusals[name] ?? 0;
    if (n > 0) parts.push(`${WHAT[name](limits[name])} (${n} refused or closed)`);
  }
  const d = refusals.descriptors ?? 0;
  if (d > 0) parts.push(`the host's descriptor reserve for all egress proxies (${d} refused)`);
  return parts.length === 0 ? '' : `tandem: prepare's egress limit reached: ${parts.join('; ')}`;
}
