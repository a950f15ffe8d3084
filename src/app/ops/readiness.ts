/**
 * Readiness (`GET /readyz`): whether this process should be sent webhooks now. Each probe is
 * bounded in time (a hung dependency is a failed probe, not a hung probe), and a process that is
 * shutting down is not ready whatever its probes say: a load balancer stops sending it webhooks
 * while its in-flight work drains.
 */
export interface ReadinessProbes {
  /** The store is open and answers a query. */
  store: () => unknown;
  /** The App's id and private key sign a JWT (no request to GitHub). */
  credentials: () => Promise<unknown>;
  /** What the executor runs on answers (Docker for `local`); resolves naming it. */
  executor: () => Promise<string>;
}

export interface CheckResult {
  ok: boolean;
  /** What was checked, or why it failed. */
  detail?: string;
}

export interface Readiness {
  ready: boolean;
  checks: Record<string, CheckResult>;
}

const PROBE_MS = 3_000;

async function bounded(name: string, probe: () => unknown): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${name}: no answer in ${PROBE_MS} ms`)), PROBE_MS);
  });
  try {
    const detail = await Promise.race([Promise.resolve().then(probe), late]);
    return typeof detail === 'string' ? { ok: true, detail } : { ok: true };
  } catch (e) {
    return { ok: false, detail: e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
  }
}

export async function readiness(probes: ReadinessProbes, shuttingDown: boolean): Promise<Readiness> {
  // The store may be closing under a drain: the answer is no without asking it.
  if (shuttingDown)
    return {
      ready: false,
      checks: { shutdown: { ok: false, detail: 'shutting down: in-flight work is draining' } },
    };
  const [store, credentials, executor] = await Promise.all([
    bounded('store', probes.store),
    bounded('credentials', probes.credentials),
    bounded('executor', probes.executor),
  ]);
  return { ready: store.ok && credentials.ok && executor.ok, checks: { store, credentials, executor } };
}
