/**
 * A worker slot taking its next job: pg-boss's fetch and the configuration's claim (or the job's
 * completion, when there is nothing to run) in ONE transaction. A worker killed between the two
 * (after pg-boss marked the job active, before any claim named its host) would otherwise leave a
 * job nobody runs and no claim the App could see go silent: it came back only when pg-boss's
 * job lease ran out. In one transaction, its death rolls the fetch back and the job is at once
 * free for the next worker; once committed, the claim names the host, whose silence the App
 * watches (workers-executor.ts).
 */
import type PgBoss from 'pg-boss';
import { DEAD_QUEUE, SHARED_QUEUE, type WorkerJob, workerJobSchema } from '../../core/worker-job.schema.ts';
import { describeIssues } from '../../core/zod-issues.ts';
import type { JobQueue } from './job-queue.ts';
import * as claims from './worker-claims.ts';
import * as rows from './worker-tables.ts';

export type Fetched = PgBoss.JobWithMetadata<unknown>;

/** What the slot has to do after the transaction committed. */
export type Taken =
  | { kind: 'none' }
  /** The job is completed already (refused, skipped or put back); `note` says why, for the log. */
  | { kind: 'finished'; note?: string }
  | { kind: 'claimed'; name: string; job: Fetched; data: WorkerJob; token: string; body: string };

export async function takeJob(queue: JobQueue, queues: readonly string[], hostId: string): Promise<Taken> {
  const client = await queue.db.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const db: PgBoss.Db = { executeSql: (text, values) => client.query(text, values) };
    let taken: Taken = { kind: 'none' };
    for (const name of queues) {
      const [job] = await queue.boss.fetch<unknown>(name, { batchSize: 1, includeMetadata: true, db });
      if (!job) continue;
      const done = async (output: object, note?: string): Promise<Taken> => {
        await queue.boss.complete(name, job.id, output, { db });
        return { kind: 'finished', ...(note ? { note } : {}) };
      };
      taken = await claimFor(client, { name, job, hostId, done, queue, db });
      break;
    }
    await client.query('COMMIT');
    return taken;
  } catch (e) {
    await client.query('ROLLBACK').catch((r: unknown) => {
      // The connection itself failed: it is destroyed, not handed to the next slot.
      broken = r as Error;
    });
    throw e;
  } finally {
    client.release(broken);
  }
}

async function claimFor(
  client: rows.Queryable,
  c: {
    name: string;
    job: Fetched;
    hostId: string;
    done: (output: object, note?: string) => Promise<Taken>;
    queue: JobQueue;
    db: PgBoss.Db;
  },
): Promise<Taken> {
  const { job, done } = c;
  const parsed = workerJobSchema.safeParse(job.data);
  if (!parsed.success) {
    const { field, detail } = describeIssues(parsed.error, { schema: workerJobSchema });
    return done({ refused: `${field}: ${detail}` }, `refused job ${job.id}: ${field}: ${detail}`);
  }
  const data = parsed.data;
  if (await rows.hasResult(client, data.evaluation, data.configuration)) return done({ skipped: 'done' });
  const body = await rows.getBundle(client, data.evaluation);
  if (body === undefined)
    return done(
      { skipped: 'evaluation over' },
      `configuration ${data.configuration} of evaluation ${data.evaluation}: the evaluation is over; skipped`,
    );
  const claim = await claims.claimConfiguration(client, {
    evaluation: data.evaluation,
    configuration: data.configuration,
    jobId: job.id,
    hostId: c.hostId,
    leaseSeconds: Number(job.expireInSeconds),
  });
  if (!claim.claimed) {
    // A host copy is only a head start: the shared copy stays responsible for the configuration,
    // and comes back when the holder's lease would end.
    if (data.copy === 'shared') {
      const seconds = Math.max(1, Math.ceil((claim.leaseUntil.getTime() - Date.now()) / 1000) + 1);
      await c.queue.boss.send(
        SHARED_QUEUE,
        { ...data, deferrals: data.deferrals + 1 },
        {
          startAfter: seconds,
          expireInSeconds: Number(job.expireInSeconds),
          retryLimit: job.retryLimit,
          deadLetter: DEAD_QUEUE,
          db: c.db,
        },
      );
    }
    return done(
      { skipped: 'held elsewhere' },
      `configuration ${data.configuration} of evaluation ${data.evaluation} is held by a live worker; put back`,
    );
  }
  return { kind: 'claimed', name: c.name, job, data, token: claim.token, body };
}
