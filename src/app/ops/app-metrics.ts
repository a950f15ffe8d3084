/**
 * The App's Prometheus metrics (`GET /metrics`), on `prom-client`. One registry per App
 * instance, never prom-client's global one: tests start several Apps in one process, and each
 * must count only its own work (the global registry would also refuse a second registration).
 *
 * What is counted where: evaluations by `evaluations/evaluation-trail.ts`, GitHub requests (each
 * HTTP attempt, retries included) and limit waits by `octokit.ts`, webhook deliveries at the
 * door (`server.ts`: refused) and at the store's claim (`service.ts`: first time or seen before).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** Why a start waited on GitHub's limits: the pacing gate (or `retry-after`) of that kind of request. */
export type LimitWaitKind = 'content' | 'search' | 'write' | 'core';

/** What became of a webhook delivery: acted on, seen before (a redelivery), or refused at the door. */
export type DeliveryResult = 'accepted' | 'duplicate' | 'rejected';

/** Evaluations this process holds: waiting (debounce window or a free slot) and running. */
export interface QueueDepth {
  queued: number;
  running: number;
}

/** Seconds: a stub executor answers in milliseconds, a Docker matrix in minutes. */
const LATENCY_BUCKETS = [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600];

export class AppMetrics {
  readonly registry = new Registry();
  private readonly evaluationSeconds: Histogram<'verdict'>;
  private readonly githubRequests: Counter<'method' | 'route' | 'status'>;
  private readonly limitWaits: Counter<'kind'>;
  private readonly limitWaitSeconds: Counter<'kind'>;
  private readonly deliveries: Counter<'result'>;
  private queueSource: () => QueueDepth = () => ({ queued: 0, running: 0 });

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    const source = () => this.queueSource();
    new Gauge({
      name: 'tandem_evaluations',
      help: 'Evaluations this process holds, by state (queued: debouncing or waiting for a slot).',
      labelNames: ['state'],
      registers,
      collect() {
        const depth = source();
        this.set({ state: 'queued' }, depth.queued);
        this.set({ state: 'running' }, depth.running);
      },
    });
    this.evaluationSeconds = new Histogram({
      name: 'tandem_evaluation_duration_seconds',
      help: 'Evaluations from start to their last published answer, by verdict.',
      labelNames: ['verdict'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.githubRequests = new Counter({
      name: 'tandem_github_requests_total',
      help: 'HTTP requests to GitHub (each attempt), by method, route class and status (0: no answer).',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.limitWaits = new Counter({
      name: 'tandem_github_limit_waits_total',
      help: "Requests that waited for GitHub's limits (pacing window, retry-after, exhausted budget), by kind.",
      labelNames: ['kind'],
      registers,
    });
    this.limitWaitSeconds = new Counter({
      name: 'tandem_github_limit_wait_seconds_total',
      help: "Seconds requests waited for GitHub's limits, by kind.",
      labelNames: ['kind'],
      registers,
    });
    this.deliveries = new Counter({
      name: 'tandem_webhook_deliveries_total',
      help: 'Webhook deliveries: accepted (first time), duplicate (seen before), rejected (refused at the door).',
      labelNames: ['result'],
      registers,
    });
  }

  /** Where the queue gauge reads from (the service, once the App has loaded). */
  watchQueue(source: () => QueueDepth): void {
    this.queueSource = source;
  }

  evaluationEnded(verdict: string, durationMs: number): void {
    this.evaluationSeconds.observe({ verdict }, durationMs / 1000);
  }

  githubRequest(method: string, route: string, status: number): void {
    this.githubRequests.inc({ method, route, status: String(status) });
  }

  limitWait(kind: LimitWaitKind, waitedMs: number): void {
    this.limitWaits.inc({ kind });
    this.limitWaitSeconds.inc({ kind }, waitedMs / 1000);
  }

  delivery(result: DeliveryResult): void {
    this.deliveries.inc({ result });
  }

  /** The text exposition format, and its content type. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
