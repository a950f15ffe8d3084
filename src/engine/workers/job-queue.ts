/**
 * The connection both sides of `executor: workers` open: pg-boss (the job queue: leases through
 * `expireInSeconds`, retries through `retryLimit`, a dead-letter queue for jobs whose retries ran
 * out) and a `pg` pool for Tandem's own rows (worker-tables.ts). Both are imported here only, when
 * a pool is opened, so a CLI run that never touches the pool never loads them.
 */

import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { DEAD_QUEUE, SHARED_QUEUE } from '../../core/worker-job.schema.ts';
import { createWorkerTables } from './worker-tables.ts';

export interface JobQueue {
  boss: PgBoss;
  db: pg.Pool;
  /** A dedicated connection for LISTEN; closed with the rest. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<void>;
  close(): Promise<void>;
}

export interface JobQueueOptions {
  databaseUrl: string;
  /**
   * How often expired leases are looked for (pg-boss maintenance), in seconds; the lease itself
   * is per job. Short in tests, where a killed worker's job should come back soon.
   */
  maintenanceSeconds?: number;
  /** Connections of the pool for Tandem's rows (a worker: one per slot taking a job, and its heartbeats). */
  connections?: number;
  /** Reports connection trouble pg-boss hits in the background (never throws from a timer). */
  onError?: (error: Error) => void;
}

export async function openJobQueue(opts: JobQueueOptions): Promise<JobQueue> {
  const [{ default: PgBossClass }, { default: pgModule }] = await Promise.all([
    import('pg-boss'),
    import('pg'),
  ]);
  const db = new pgModule.Pool({
    connectionString: opts.databaseUrl,
    max: Math.max(4, opts.connections ?? 0),
  });
  db.on('error', (e) => opts.onError?.(e));
  const boss = new PgBossClass({
    connectionString: opts.databaseUrl,
    max: 4,
    ...(opts.maintenanceSeconds ? { maintenanceIntervalSeconds: opts.maintenanceSeconds } : {}),
    monitorStateIntervalSeconds: 60,
  });
  boss.on('error', (e) => opts.onError?.(e));
  const listeners: pg.Client[] = [];
  try {
    await boss.start();
    await createWorkerTables(db);
    await ensureQueue(boss, DEAD_QUEUE);
    await ensureQueue(boss, SHARED_QUEUE, { deadLetter: DEAD_QUEUE });
  } catch (e) {
    await boss.stop({ graceful: false, wait: true }).catch(() => {});
    await db.end().catch(() => {});
    throw e;
  }
  return {
    boss,
    db,
    async listen(channel, onNotify) {
      const client = new pgModule.Client({ connectionString: opts.databaseUrl });
      client.on('error', (e) => opts.onError?.(e));
      await client.connect();
      listeners.push(client);
      client.on('notification', (n) => {
        if (n.channel === channel) onNotify(n.payload ?? '');
      });
      await client.query(`LISTEN ${channel}`);
    },
    async close() {
      await boss.stop({ graceful: false, wait: true, close: true }).catch(() => {});
      await Promise.all(listeners.map((c) => c.end().catch(() => {})));
      await db.end().catch(() => {});
    },
  };
}

/** Creates a queue unless it exists (several processes start at once: a lost race is fine). */
export async function ensureQueue(
  boss: PgBoss,
  name: string,
  options: Omit<PgBoss.Queue, 'name'> = {},
): Promise<void> {
  if (await boss.getQueue(name)) return;
  await boss.createQueue(name, { name, ...options }).catch(async (e) => {
    if (!(await boss.getQueue(name))) throw e;
  });
}
