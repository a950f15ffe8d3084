/**
 * What one evaluation leaves in the logs and the metrics: a line when it starts, one when its set
 * is known, one when it ends, each with the evaluation's facts as JSON properties (pino writes the
 * object's fields beside `msg`), so a log search finds an evaluation by id, set, PR or head
 * without parsing messages; and its latency in the histogram, by verdict.
 */
import type { AppMetrics } from '../ops/app-metrics.ts';

/**
 * How an evaluation ended: a report's outcome (`resolved`, `unresolved`, `error`: the report says
 * no verdict could be reached) or why there was none.
 */
export type TrailVerdict =
  | 'resolved'
  | 'unresolved'
  | 'error'
  | 'infrastructure-error'
  | 'invalid-config'
  | 'no-config'
  | 'no-suite'
  | 'closed'
  | 'aborted'
  | 'crashed';

export interface TrailLog {
  info: (o: object, m: string) => void;
  warn: (o: object, m: string) => void;
}

export interface TrailItem {
  evaluationId: number;
  setKey: string;
  seed: string;
  installationId: number;
}

export class EvaluationTrail {
  private readonly startedAt = performance.now();
  private prs: string[] = [];
  private heads: string[] = [];
  private ended = false;

  constructor(
    private readonly log: TrailLog,
    private readonly item: TrailItem,
    private readonly metrics?: Pick<AppMetrics, 'evaluationEnded'>,
  ) {
    log.info({ ...this.names(), seed: item.seed, installation: item.installationId }, 'evaluation started');
  }

  /** The members as evaluated: `prs[i]` at `heads[i]`. */
  members(members: ReadonlyArray<{ key: string; headSha: string }>): void {
    this.prs = members.map((m) => m.key);
    this.heads = members.map((m) => m.headSha);
    this.log.info(this.facts(), 'evaluation set resolved');
  }

  /** The one end line (later calls do nothing): `warn` for an end without a verdict on the code. */
  end(verdict: TrailVerdict, extra: Record<string, unknown> = {}): void {
    if (this.ended) return;
    this.ended = true;
    const durationMs = Math.round(performance.now() - this.startedAt);
    this.metrics?.evaluationEnded(verdict, durationMs);
    const line = { ...this.facts(), durationMs, verdict, ...extra };
    if (verdict === 'infrastructure-error' || verdict === 'error' || verdict === 'crashed')
      this.log.warn(line, verdict === 'crashed' ? 'evaluation crashed' : 'evaluation failed');
    else this.log.info(line, 'evaluation done');
  }

  get done(): boolean {
    return this.ended;
  }

  private names() {
    return { evaluation: this.item.evaluationId, set: this.item.setKey };
  }

  private facts() {
    return { ...this.names(), prs: this.prs, heads: this.heads };
  }
}
