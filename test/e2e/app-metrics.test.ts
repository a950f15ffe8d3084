/**
 * `GET /metrics` and the evaluation's log lines, read back from the App's real server after one
 * evaluation of a linked pair: the Prometheus text is parsed and compared with what the GitHub
 * stand-in saw, and the App's pino stream is parsed line by line.
 */
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { startAppServer } from '../../src/app/server.ts';
import { StubExecutor } from '../support/stub-executor.ts';
import { API_OK, openPull, SCHEMA_OK, sendPull, useWorld } from './app-harness.ts';

const startWorld = useWorld();

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The sum of `name`'s samples whose labels include `labels`. */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((a, s) => a + s.value, 0);
}

async function scrape(url: string): Promise<{ contentType: string | null; samples: Sample[] }> {
  const res = await fetch(`${url}/metrics`);
  expect(res.status).toBe(200);
  return { contentType: res.headers.get('content-type'), samples: parseMetrics(await res.text()) };
}

/** A pino logger at `info` writing into `lines` (one JSON object a line). */
function capturedLog() {
  const lines: Array<Record<string, unknown>> = [];
  let partial = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      partial += String(chunk);
      const parts = partial.split('\n');
      partial = parts.pop() ?? '';
      for (const p of parts) if (p) lines.push(JSON.parse(p));
      done();
    },
  });
  return { lines, log: pino({ level: 'info' }, sink) };
}

describe('App: metrics and structured logs after one evaluation', () => {
  it('counts the evaluation, the GitHub requests, a limit wait and the deliveries; logs the evaluation with its facts', async () => {
    const { lines, log } = capturedLog();
    const w = await startWorld({ executor: new StubExecutor(), log });
    const schema = await openPull(w, 'schema', SCHEMA_OK, '');
    const api = await openPull(w, 'api', { 'index.js': API_OK }, 'Depends-On: acme/schema#1');
    const first = await sendPull(w, 'opened', 'schema', 1);
    await sendPull(w, 'opened', 'api', 1);
    // A redelivery of the first, and a delivery whose signature is wrong.
    const again = await w.sender.pullRequest(
      'opened',
      {
        pullRequest: w.standIn.pullRequest('acme', 'schema', 1) as unknown as Record<string, unknown>,
        repository: w.standIn.repository('acme', 'schema') as unknown as Record<string, unknown>,
        installationId: w.installationId,
      },
      { deliveryId: first.deliveryId },
    );
    expect(again.status).toBe(200);
    const forged = await w.sender.send('ping', { zen: 'x' }, { signature: `sha256=${'0'.repeat(64)}` });
    expect(forged.status).toBe(401);
    // GitHub's secondary limit answers the next request 429 `retry-after: 1`: waited out, counted.
    w.standIn.rateLimitNext(1, 'secondary');
    await w.app.service.idle({ flush: true });

    const { contentType, samples } = await scrape(w.app.url);
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(total(samples, 'tandem_evaluation_duration_seconds_count', { verdict: 'resolved' })).toBe(1);
    expect(total(samples, 'tandem_evaluation_duration_seconds_count')).toBe(1);
    expect(total(samples, 'tandem_evaluations', { state: 'queued' })).toBe(0);
    expect(total(samples, 'tandem_evaluations', { state: 'running' })).toBe(0);
    expect(total(samples, 'tandem_webhook_deliveries_total', { result: 'accepted' })).toBe(2);
    expect(total(samples, 'tandem_webhook_deliveries_total', { result: 'duplicate' })).toBe(1);
    expect(total(samples, 'tandem_webhook_deliveries_total', { result: 'rejected' })).toBe(1);
    // Every request the stand-in answered was counted once, by its route class and status.
    const seen = w.standIn.requests;
    expect(total(samples, 'tandem_github_requests_total')).toBe(seen.length);
    const checkCreates = seen.filter((r) => r.method === 'POST' && r.path.endsWith('/check-runs')).length;
    expect(checkCreates).toBeGreaterThanOrEqual(2);
    expect(total(samples, 'tandem_github_requests_total', { method: 'POST', route: 'check-runs' })).toBe(
      checkCreates,
    );
    expect(total(samples, 'tandem_github_requests_total', { status: '429' })).toBe(1);
    expect(
      total(samples, 'tandem_github_requests_total', { method: 'POST', route: 'comments', status: '201' }),
    ).toBe(2);
    expect(total(samples, 'tandem_github_limit_waits_total')).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'tandem_github_limit_wait_seconds_total')).toBeGreaterThanOrEqual(1);
    // Node's default process metrics, in the same registry.
    expect(samples.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(samples.some((s) => s.name === 'nodejs_heap_size_used_bytes')).toBe(true);

    // The lifecycle lines carry the facts as JSON properties.
    const done = lines.filter((l) => l.msg === 'evaluation done');
    expect(done).toHaveLength(1);
    const line = done[0]!;
    expect(line).toMatchObject({ set: 'acme/api#1', verdict: 'resolved', reused: false });
    expect(typeof line.evaluation).toBe('number');
    expect(typeof line.durationMs).toBe('number');
    const members = (line.prs as string[]).map((pr, i) => [pr, (line.heads as string[])[i]]);
    expect(members.sort()).toEqual([
      ['acme/api#1', api.head.sha],
      ['acme/schema#1', schema.head.sha],
    ]);
    const started = lines.find((l) => l.msg === 'evaluation started');
    expect(started).toMatchObject({ evaluation: line.evaluation, set: 'acme/api#1' });

    // A second App in the same process has its own registry: none of the above is counted there.
    const other = await startAppServer({
      env: { ...w.env, TANDEM_DATA_DIR: join(w.root, 'other-data') },
      executor: new StubExecutor(),
    });
    try {
      const fresh = (await scrape(other.url)).samples;
      expect(total(fresh, 'tandem_webhook_deliveries_total')).toBe(0);
      expect(total(fresh, 'tandem_evaluation_duration_seconds_count')).toBe(0);
      expect(total(fresh, 'tandem_github_requests_total')).toBe(0);
    } finally {
      await other.close();
    }
  });
});
