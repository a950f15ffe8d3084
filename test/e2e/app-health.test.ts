/**
 * `GET /healthz` and `GET /readyz` over real HTTP against the App's real server: ready with its
 * store, credentials and Docker answering; not ready, naming the cause, when the store or Docker
 * does not answer; and after a shutdown begins (what SIGTERM calls), 503 on `/readyz` while the
 * in-flight evaluation drains, the process still answering `/healthz`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Executor, LinkedChangeSpec } from '../../src/app/executors/executor.ts';
import type { Report } from '../../src/core/report.schema.ts';
import { stubReport } from '../support/stub-executor.ts';
import { createWebhookSender } from '../support/webhook-sender.ts';
import { APP_BACKENDS, openPull, SCHEMA_OK, SECRET, sendPull, useWorld, type World } from './app-harness.ts';

const APP_PROCESS = fileURLToPath(new URL('../support/app-process.ts', import.meta.url));

const startWorld = useWorld();

async function get(w: World | string, path: string) {
  const res = await fetch(`${typeof w === 'string' ? w : w.app.url}${path}`);
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
}

/** An evaluation that, once aborted by the shutdown, takes until `release()` to stop. */
class SlowToStopExecutor implements Executor {
  private startedResolve = () => {};
  readonly started = new Promise<void>((r) => (this.startedResolve = r));
  private releaseResolve = () => {};
  private readonly released = new Promise<void>((r) => (this.releaseResolve = r));

  release(): void {
    this.releaseResolve();
  }

  async run(spec: LinkedChangeSpec, signal: AbortSignal): Promise<Report> {
    this.startedResolve();
    await new Promise<void>((ok) => signal.addEventListener('abort', () => ok(), { once: true }));
    await this.released;
    return stubReport(spec);
  }
}

describe.each(APP_BACKENDS)('App: readiness with its store closed (%s)', (backend) => {
  const startBackendWorld = useWorld({ backend });
  it('says 503 naming the store when it does not answer a query', async () => {
    const w = await startBackendWorld();
    await w.app.runtime.store.close();
    const ready = await get(w, '/readyz');
    expect(ready.status).toBe(503);
    const body = ready.json();
    expect(body.ready).toBe(false);
    expect(body.checks.store).toEqual({ ok: false, detail: expect.stringMatching(/not open/) });
    expect(body.checks.credentials.ok).toBe(true);
    expect((await get(w, '/healthz')).status).toBe(200);
  });
});

describe('App: health and readiness', () => {
  it('answers /healthz, and /readyz 200 with the store, the credentials and Docker checked', async () => {
    // No executor given: the App's own (the engine on this host, Docker).
    const w = await startWorld();
    const health = await get(w, '/healthz');
    expect(health.status).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await get(w, '/readyz');
    expect(ready.status, ready.text).toBe(200);
    expect(ready.json()).toEqual({
      ready: true,
      checks: { store: { ok: true }, credentials: { ok: true }, executor: { ok: true, detail: 'Docker' } },
    });
  });

  it('says 503 naming Docker when the engine does not answer', async () => {
    const w = await startWorld();
    const saved = process.env.DOCKER_HOST;
    // The engine client reads DOCKER_HOST as the evaluations would (this file's worker only).
    process.env.DOCKER_HOST = `unix://${w.root}/no-docker.sock`;
    try {
      const ready = await get(w, '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.json().checks.executor).toEqual({
        ok: false,
        detail: expect.stringMatching(/^Docker is not reachable: .*no-docker\.sock/),
      });
    } finally {
      if (saved === undefined) delete process.env.DOCKER_HOST;
      else process.env.DOCKER_HOST = saved;
    }
  });

  it('after shutdown begins: /readyz 503 and webhooks refused while the evaluation drains', async () => {
    const executor = new SlowToStopExecutor();
    const w = await startWorld({ executor });
    await openPull(w, 'schema', { 'index.js': 'module.exports = { fields: [] };\n' }, '');
    expect((await sendPull(w, 'opened', 'schema', 1)).status).toBe(200);
    w.app.service.flush();
    await executor.started;
    expect((await get(w, '/readyz')).status).toBe(200);

    let closed = false;
    const closing = w.app.close().then(() => (closed = true));
    const ready = await get(w, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json()).toEqual({
      ready: false,
      checks: { shutdown: { ok: false, detail: 'shutting down: in-flight work is draining' } },
    });
    expect((await get(w, '/healthz')).status).toBe(200);
    const refused = await sendPull(w, 'synchronize', 'schema', 1);
    expect(refused.status).toBe(503);
    expect(closed).toBe(false);

    executor.release();
    await closing;
    // Drained, then stopped listening.
    await expect(fetch(`${w.app.url}/healthz`)).rejects.toThrow();
  });

  it('a real SIGTERM: /readyz 503 while the held evaluation drains, then the process exits 0', async () => {
    const w = await startWorld();
    await w.app.close();
    await openPull(w, 'schema', SCHEMA_OK, '');
    const child = spawn(process.execPath, ['--import', 'tsx', APP_PROCESS], {
      env: { ...w.env, PATH: process.env.PATH, TANDEM_DEBOUNCE_MS: '0', TANDEM_TEST_HOLD_EVALUATIONS: '1' },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    // A failing assertion must not leave the child running.
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    // The child's stdout, one JSON line at a time, none lost between two reads.
    const lines: Array<Record<string, unknown>> = [];
    let wake = () => {};
    createInterface({ input: child.stdout! }).on('line', (l) => {
      lines.push(JSON.parse(l));
      wake();
    });
    const next = async () => {
      while (lines.length === 0) await new Promise<void>((ok) => (wake = ok));
      return lines.shift()!;
    };
    const { url } = (await next()) as { url: string };
    const sender = createWebhookSender({ url: `${url}/api/github/webhooks`, secret: SECRET });
    await sender.pullRequest('opened', {
      pullRequest: w.standIn.pullRequest('acme', 'schema', 1) as unknown as Record<string, unknown>,
      repository: w.standIn.repository('acme', 'schema') as unknown as Record<string, unknown>,
      installationId: w.installationId,
    });
    expect(await next()).toEqual({ event: 'evaluation-started' });
    expect((await get(url, '/readyz')).status).toBe(200);

    child.kill('SIGTERM');
    expect(await next()).toEqual({ event: 'stopping' });
    const ready = await get(url, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.json().checks.shutdown.ok).toBe(false);
    expect((await get(url, '/healthz')).status).toBe(200);

    child.stdin!.end('release\n');
    expect(await exited).toEqual([0, null]);
  });
});
