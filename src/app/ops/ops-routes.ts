/**
 * The operations endpoints beside the webhook path: `GET /healthz` (the process answers),
 * `GET /readyz` (ready to take webhooks, `readiness.ts`) and `GET /metrics` (Prometheus text).
 * None of them is needed by GitHub: a reverse proxy in front exposes only the webhook path.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppMetrics } from './app-metrics.ts';
import type { Readiness } from './readiness.ts';

export interface OpsDeps {
  metrics: AppMetrics;
  readiness: () => Promise<Readiness>;
}

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

/** Answers `req` when it is one of the operations routes; false when it is not. */
export function serveOps(req: IncomingMessage, res: ServerResponse, deps: OpsDeps): boolean {
  if (req.method !== 'GET') return false;
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (path === '/healthz') {
    res.writeHead(200, JSON_TYPE).end('{"status":"ok"}\n');
    return true;
  }
  if (path === '/readyz') {
    deps.readiness().then(
      (r) => res.writeHead(r.ready ? 200 : 503, JSON_TYPE).end(`${JSON.stringify(r)}\n`),
      (e) => res.writeHead(503, JSON_TYPE).end(`${JSON.stringify({ ready: false, error: String(e) })}\n`),
    );
    return true;
  }
  if (path === '/metrics') {
    deps.metrics.exposition().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      (e) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(e)),
    );
    return true;
  }
  return false;
}
