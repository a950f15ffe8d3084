/**
 * The jobs whose every attempt lost its worker (pg-boss's dead-letter queue): that configuration
 * becomes an infrastructure error — unless the dead job is a host copy (the shared copy stays
 * responsible for the configuration), the configuration already has its answer, or a live worker
 * holds its claim. pg-boss's job expiry cannot be renewed, so a configuration that runs longer
 * than its lease can reach here while its worker is alive and renewing the claim: then a fresh
 * shared copy comes back when that lease would end, in case the worker dies after all.
 */
import { DEAD_QUEUE, SHARED_QUEUE, workerJobSchema } from '../../core/worker-job.schema.ts';
import type { JobQueue } from '../../engine/workers/job-queue.ts';

export async function handleDeadLetters(
  q: JobQueue,
  settings: { leaseSeconds: number; retries: number },
): Promise<void> {
  const [rows, claims] = await Promise.all([
    import('../../engine/workers/worker-tables.ts'),
    import('../../engine/workers/worker-claims.ts'),
  ]);
  await q.boss.work<unknown>(DEAD_QUEUE, async ([job]) => {
    const parsed = workerJobSchema.safeParse(job?.data);
    if (!parsed.success || parsed.data.copy === 'host') return;
    const data = parsed.data;
    if (await rows.hasResult(q.db, data.evaluation, data.configuration)) return;
    const live = await claims.liveClaim(q.db, data.evaluation, data.configuration);
    if (live) {
      await q.boss.send(
        SHARED_QUEUE,
        { ...data, deferrals: data.deferrals + 1 },
        {
          startAfter: Math.max(1, Math.ceil((live.getTime() - Date.now()) / 1000) + 1),
          expireInSeconds: settings.leaseSeconds,
          retryLimit: settings.retries,
          deadLetter: DEAD_QUEUE,
        },
      );
      return;
    }
    await rows.putInfraResult(q.db, {
      evaluation: data.evaluation,
      configuration: data.configuration,
      outcome: {
        kind: 'infra',
        hostId: '',
        error: {
          kind: 'engine',
          message: `every worker that took configuration ${data.configuration} stopped answering before its lease ended`,
        },
      },
    });
  });
}
