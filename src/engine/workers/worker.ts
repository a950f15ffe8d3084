/**
 * `tandem worker`: takes configuration jobs from PostgreSQL and runs each through the engine
 * (run-job.ts). Each of its `concurrency` slots takes from this host's own queue first (the App
 * sends a job there when this host already holds the evaluation's repositories) and from the
 * shared queue after. A job's configuration is claimed under a token and the claim renewed by a
 * heartbeat while it runs, so a long configuration keeps it however long it takes; a copy that
 * finds the claim held by a live worker is put back for when that lease would end, and one that
 * finds it stale (the holder died, froze or lost its host) takes it over. What a job produced —
 * a partial report or an infrastructure error — is stored under the token with a NOTIFY to the
 * App; a worker whose claim was taken over stores nothing and leaves the job alone (it is the new
 * holder's), so a killed or frozen attempt never counts as a verdict, nor twice.
 */
import path from 'node:path';
import { scrubCredentials } from '../../core/credentials.ts';
import { errorText } from '../../core/error-text.ts';
import { infraInfo } from '../../core/errors.ts';
import {
  DEAD_QUEUE,
  hostQueue,
  JOBS_CHANNEL,
  SHARED_QUEUE,
  type WorkerBundle,
  workerBundleSchema,
} from '../../core/worker-job.schema.ts';
import { describeIssues } from '../../core/zod-issues.ts';
import { ensureQueue, type JobQueue, openJobQueue } from './job-queue.ts';
import { type ConfigurationRunner, SuiteFolders } from './run-job.ts';
import * as claims from './worker-claims.ts';
import * as rows from './worker-tables.ts';
import { type Taken, takeJob } from './worker-take.ts';

export interface WorkerOptions {
  databaseUrl: string;
  hostId: string;
  concurrency: number;
  runner: ConfigurationRunner;
  /** Where suite folders are written (under the engine's cache folder). */
  scratchDir: string;
  /** Stops taking jobs and aborts the running ones (their jobs are failed, so they retry at once). */
  signal: AbortSignal;
  log: (line: string) => void;
  /** How often an idle slot looks again without a NOTIFY (delayed copies, retries), ms. */
  pollMs?: number;
  maintenanceSeconds?: number;
}

/** Runs until `signal` aborts; resolves once every slot stopped and the connections closed. */
export async function runWorker(opts: WorkerOptions): Promise<void> {
  const queue = await openJobQueue({
    databaseUrl: opts.databaseUrl,
    connections: Math.max(1, opts.concurrency) + 2,
    ...(opts.maintenanceSeconds ? { maintenanceSeconds: opts.maintenanceSeconds } : {}),
    onError: (e) => opts.log(`database trouble: ${scrubCredentials(errorText(e))}`),
  });
  const own = hostQueue(opts.hostId);
  const slots = Math.max(1, opts.concurrency);
  const folders = new SuiteFolders(path.join(opts.scratchDir, `suites-${opts.hostId}`));
  let wake: Array<() => void> = [];
  const wakeAll = () => {
    const w = wake;
    wake = [];
    for (const f of w) f();
  };
  opts.signal.addEventListener('abort', wakeAll);
  const beat = setInterval(
    () => void rows.heartbeat(queue.db, opts.hostId, slots).catch(() => {}),
    rows.HEARTBEAT_SECONDS * 1000,
  );
  try {
    await ensureQueue(queue.boss, own, { deadLetter: DEAD_QUEUE });
    await queue.listen(JOBS_CHANNEL, wakeAll);
    await rows.heartbeat(queue.db, opts.hostId, slots);
    opts.log(`worker ${opts.hostId}: taking jobs (${opts.concurrency} at once)`);
    const slot = async () => {
      while (!opts.signal.aborted) {
        try {
          const taken = await takeJob(queue, [own, SHARED_QUEUE], opts.hostId);
          if (taken.kind === 'finished' && taken.note) opts.log(`worker ${opts.hostId}: ${taken.note}`);
          if (taken.kind === 'claimed') await run(queue, taken, opts, folders);
          if (taken.kind !== 'none') continue;
        } catch (e) {
          // The database failed mid-job: the job's lease brings it back; this slot waits and goes on.
          opts.log(`worker ${opts.hostId}: database trouble: ${scrubCredentials(errorText(e))}`);
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, opts.pollMs ?? 2_000);
          wake.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    };
    await Promise.all(Array.from({ length: slots }, slot));
  } finally {
    clearInterval(beat);
    await rows.leave(queue.db, opts.hostId).catch(() => {});
    await folders.clear().catch(() => {});
    await queue.close();
    opts.log(`worker ${opts.hostId}: stopped`);
  }
}

/** Runs a claimed configuration and stores its answer under the claim's token. */
async function run(
  queue: JobQueue,
  { name, job, data, token, body }: Extract<Taken, { kind: 'claimed' }>,
  opts: WorkerOptions,
  folders: SuiteFolders,
): Promise<void> {
  const done = (output: object) => queue.boss.complete(name, job.id, output);
  const what = `configuration ${data.configuration} of evaluation ${data.evaluation}`;
  const lease = Number(job.expireInSeconds);
  const bundle = parseBundle(body);
  if (typeof bundle === 'string') {
    await rows.putResult(queue.db, {
      evaluation: data.evaluation,
      configuration: data.configuration,
      token,
      outcome: { kind: 'infra', hostId: opts.hostId, error: { kind: 'engine', message: bundle } },
    });
    return done({ refused: bundle });
  }
  const started = Date.now();
  opts.log(`worker ${opts.hostId}: running ${what} (attempt ${job.retryCount + 1})`);
  const controller = new AbortController();
  const stop = () => controller.abort();
  opts.signal.addEventListener('abort', stop);
  // The claim's heartbeat: renewed well within its lease; lost (taken over after this process
  // was frozen or cut off), the run stops and nothing it produced is stored.
  let lost = false;
  const renew = setInterval(
    () =>
      void claims.renewClaim(queue.db, token, lease).then(
        (held) => {
          if (held || lost) return;
          lost = true;
          controller.abort();
        },
        () => {},
      ),
    Math.max(250, (lease * 1000) / 3),
  );
  const store = async (outcome: object, report?: string): Promise<boolean> => {
    const stored =
      !lost &&
      (await rows.putResult(queue.db, {
        evaluation: data.evaluation,
        configuration: data.configuration,
        token,
        outcome,
        ...(report === undefined ? {} : { report }),
      }));
    if (!stored) {
      lost = true;
      opts.log(`worker ${opts.hostId}: ${what}: another worker took over its claim; this answer is refused`);
    }
    return stored;
  };
  try {
    const suiteDir = await folders.get(data.evaluation, bundle.files);
    const report = await opts.runner({
      bundle,
      suiteDir,
      configuration: data.configuration,
      signal: controller.signal,
    });
    if (!(await store({ kind: 'report', hostId: opts.hostId }, JSON.stringify(report)))) return;
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    opts.log(`worker ${opts.hostId}: ${what} reported in ${secs}s`);
  } catch (err) {
    if (lost) {
      // Not this worker's job any more: the new holder completes it.
      opts.log(`worker ${opts.hostId}: ${what}: another worker took over its claim; stopped`);
      return;
    }
    if (controller.signal.aborted) {
      // Stopped, not a result: the job goes back at once (not after its lease) for another worker.
      opts.log(`worker ${opts.hostId}: ${what} interrupted; handed back`);
      await claims.releaseClaim(queue.db, token).catch(() => {});
      await queue.boss.fail(name, job.id, { interrupted: true }).catch(() => {});
      return;
    }
    const info = infraInfo(err);
    const secrets = bundle.targets.map((t) => t.url).concat(bundle.context.map((c) => c.url));
    const error = { ...info, message: scrubCredentials(info.message, secrets) };
    if (!(await store({ kind: 'infra', hostId: opts.hostId, error }))) return;
    opts.log(`worker ${opts.hostId}: ${what} could not run: ${error.message}`);
  } finally {
    clearInterval(renew);
    opts.signal.removeEventListener('abort', stop);
  }
  await rows
    .recordHoldings(
      queue.db,
      opts.hostId,
      [...bundle.targets, ...bundle.context].map((r) => r.repo),
    )
    .catch(() => {});
  await done({ ran: true });
}

/** The bundle, or what is wrong with it (named by field, never quoting its values). */
function parseBundle(body: string): WorkerBundle | string {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return 'the evaluation bundle is not JSON';
  }
  const parsed = workerBundleSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const { field } = describeIssues(parsed.error, { schema: workerBundleSchema });
  return `the evaluation bundle is invalid at ${field}`;
}
