/**
 * The linked-set merge queue in the App's database (issue 28), so a restart mid-queue resumes:
 * - `set_queue`: the queue logic's state (`core/set-queue`, pure and JSON-serialisable), one row
 *   per installation, written after every step the runner takes;
 * - `queue_items`: what the App knows of each item beyond the logic: who asked, each member's
 *   head and base branch, whether its branch lands through GitHub's merge queue, the `Tandem
 *   queue` check run on each member, and how the item ended;
 * - `queue_runs`: each speculative evaluation (an item on top of the items ahead of it), with the
 *   tested commits it was given and its result; one still `running` at a restart is run again.
 * - `queue_commits`: each tested commit built (repository, branch, onto, heads → SHA), so a
 *   repository's speculative state is built once: the item behind reuses exactly the commit the
 *   item ahead is tested (and lands) as.
 * Rows are validated on read: a row another version wrote must not crash a restart.
 */
import { z } from 'zod';
import { forUpdate, insertionOrder, serialiseWrites } from './sql-dialect.ts';
import type { Driver, Queryable } from './store-driver.ts';

export const queueMemberRecordSchema = z.object({
  pull: z.string().min(1),
  repo: z.string().min(1),
  baseBranch: z.string().min(1),
  headSha: z.string().min(1),
  viaMergeQueue: z.boolean().default(false),
});
export type QueueMemberRecord = z.infer<typeof queueMemberRecordSchema>;

export type QueueItemStatus = 'queued' | 'landing' | 'landed' | 'evicted' | 'dequeued';

export interface QueueItemRecord {
  id: string;
  installationId: number;
  seed: string;
  requestedBy: string;
  /** Members in merge order (producers first). */
  members: QueueMemberRecord[];
  status: QueueItemStatus;
  /** The `Tandem queue` check run on each member's head, by PR key. */
  checkRuns: Record<string, number>;
  /** Why it left the queue (evicted, dequeued, landing refused). */
  reason: string | null;
}

/** One member repository as a speculative evaluation took it: built on `base`, tested as `sha`. */
export const testedRepoSchema = z.object({
  repo: z.string(),
  baseBranch: z.string(),
  base: z.string(),
  sha: z.string(),
});
export type TestedRepo = z.infer<typeof testedRepoSchema>;

export interface QueueRunRecord {
  itemId: string;
  /** The items ahead whose changes the speculative state holds, merge order. */
  ahead: string[];
  attempt: number;
  diagnostic: string | null;
  tested: TestedRepo[];
  state: 'running' | 'done' | 'cancelled';
}

const itemRowSchema = z.object({
  id: z.string(),
  installation_id: z.number().int(),
  seed: z.string(),
  requested_by: z.string(),
  members: z.string(),
  status: z.enum(['queued', 'landing', 'landed', 'evicted', 'dequeued']),
  check_runs: z.string(),
  reason: z.string().nullable(),
});

const runRowSchema = z.object({
  item_id: z.string(),
  ahead: z.string(),
  attempt: z.number().int(),
  diagnostic: z.string(),
  tested: z.string(),
  state: z.enum(['running', 'done', 'cancelled']),
});

function toItem(row: unknown): QueueItemRecord | undefined {
  const r = itemRowSchema.safeParse(row);
  if (!r.success) return undefined;
  const members = z.array(queueMemberRecordSchema).safeParse(JSON.parse(r.data.members));
  const checks = z.record(z.string(), z.number()).safeParse(JSON.parse(r.data.check_runs));
  if (!members.success || !checks.success) return undefined;
  return {
    id: r.data.id,
    installationId: r.data.installation_id,
    seed: r.data.seed,
    requestedBy: r.data.requested_by,
    members: members.data,
    status: r.data.status,
    checkRuns: checks.data,
    reason: r.data.reason,
  };
}

function toRun(row: unknown): QueueRunRecord | undefined {
  const r = runRowSchema.safeParse(row);
  if (!r.success) return undefined;
  const tested = z.array(testedRepoSchema).safeParse(JSON.parse(r.data.tested));
  if (!tested.success) return undefined;
  return {
    itemId: r.data.item_id,
    ahead: r.data.ahead === '' ? [] : r.data.ahead.split(' '),
    attempt: r.data.attempt,
    diagnostic: r.data.diagnostic === '' ? null : r.data.diagnostic,
    tested: tested.data,
    state: r.data.state,
  };
}

export class SetQueueTable {
  constructor(private readonly db: Driver) {}

  /** The installation's queue state as the logic last left it (JSON), or undefined. */
  async state(installationId: number): Promise<unknown> {
    const row = (await this.db.get('SELECT state FROM set_queue WHERE installation_id = ?', [
      installationId,
    ])) as { state: string } | undefined;
    return row ? JSON.parse(row.state) : undefined;
  }

  /**
   * One step on the installation's queue state as a single transaction: the stored state (JSON,
   * or undefined) is read with its row locked, `change` computes the next one (synchronously),
   * and it is saved, so two replicas stepping the same queue never lose each other's change.
   */
  async update<T>(
    installationId: number,
    change: (stored: unknown) => { state: unknown; out: T },
  ): Promise<T> {
    return this.db.transaction(async (tx) => {
      // A first state for the installation: its row is made first, so there is one to lock.
      await tx.run(
        `INSERT INTO set_queue (installation_id, state, updated_at) VALUES (?, 'null', ?) ON CONFLICT (installation_id) DO NOTHING`,
        [installationId, Date.now()],
      );
      const row = (await tx.get(
        `SELECT state FROM set_queue WHERE installation_id = ?${forUpdate(tx.dialect)}`,
        [installationId],
      )) as { state: string };
      const parsed: unknown = JSON.parse(row.state);
      const { state, out } = change(parsed === null ? undefined : parsed);
      await tx.run('UPDATE set_queue SET state = ?, updated_at = ? WHERE installation_id = ?', [
        JSON.stringify(state),
        Date.now(),
        installationId,
      ]);
      return out;
    });
  }

  async saveState(installationId: number, state: unknown): Promise<void> {
    await this.db.run(
      `INSERT INTO set_queue (installation_id, state, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (installation_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
      [installationId, JSON.stringify(state), Date.now()],
    );
  }

  /** Installations with a queue row (the restart resumes each). */
  async installations(): Promise<number[]> {
    const rows = (await this.db.all('SELECT installation_id AS id FROM set_queue')) as Array<{ id: number }>;
    return rows.map((r) => r.id);
  }

  /**
   * Queues an item under the next number (`q<n>`, n = items ever queued + 1) and returns its id;
   * undefined, and nothing written, when one of its members is already in an active item. One
   * step across replicas: two enqueues at once get two numbers, and one set is never queued twice.
   */
  async addItem(
    item: Omit<QueueItemRecord, 'id' | 'status' | 'checkRuns' | 'reason'>,
  ): Promise<string | undefined> {
    return this.db.transaction(async (tx) => {
      await serialiseWrites(tx, 'queue_items');
      const active = await this.activeItemOf(
        item.members.map((m) => m.pull),
        tx,
      );
      if (active) return undefined;
      const n = ((await tx.get('SELECT COUNT(*) AS n FROM queue_items')) as { n: number }).n;
      const id = `q${n + 1}`;
      const now = Date.now();
      await tx.run(
        `INSERT INTO queue_items (id, installation_id, seed, requested_by, members, status, check_runs, reason, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'queued', '{}', NULL, ?, ?)`,
        [id, item.installationId, item.seed, item.requestedBy, JSON.stringify(item.members), now, now],
      );
      return id;
    });
  }

  async item(id: string): Promise<QueueItemRecord | undefined> {
    return toItem(await this.db.get('SELECT * FROM queue_items WHERE id = ?', [id]));
  }

  /** The item still in the queue (queued or landing) that holds `pull` (or one of `pull`), if any. */
  async activeItemOf(
    pull: string | readonly string[],
    q: Queryable = this.db,
  ): Promise<QueueItemRecord | undefined> {
    const pulls = typeof pull === 'string' ? [pull] : pull;
    const rows = await q.all(
      `SELECT * FROM queue_items WHERE status IN ('queued', 'landing') ORDER BY created_at, ${insertionOrder(this.db.dialect)}`,
    );
    return rows.map(toItem).find((i) => i?.members.some((m) => pulls.includes(m.pull)));
  }

  /** Items of the installation still in the queue, oldest first. */
  async activeItems(installationId: number): Promise<QueueItemRecord[]> {
    const rows = await this.db.all(
      `SELECT * FROM queue_items WHERE installation_id = ? AND status IN ('queued', 'landing') ORDER BY created_at, ${insertionOrder(this.db.dialect)}`,
      [installationId],
    );
    return rows.map(toItem).filter((i): i is QueueItemRecord => i !== undefined);
  }

  async setStatus(id: string, status: QueueItemStatus, reason: string | null = null): Promise<void> {
    await this.db.run('UPDATE queue_items SET status = ?, reason = ?, updated_at = ? WHERE id = ?', [
      status,
      reason,
      Date.now(),
      id,
    ]);
  }

  async setCheckRun(id: string, pull: string, checkRunId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const item = toItem(
        await tx.get(`SELECT * FROM queue_items WHERE id = ?${forUpdate(tx.dialect)}`, [id]),
      );
      if (!item) return;
      const runs = { ...item.checkRuns, [pull]: checkRunId };
      await tx.run('UPDATE queue_items SET check_runs = ? WHERE id = ?', [JSON.stringify(runs), id]);
    });
  }

  /** A speculative evaluation starting with these tested commits (a retry of the same one replaces it). */
  async startRun(run: Omit<QueueRunRecord, 'state'>): Promise<void> {
    await this.db.run(
      `INSERT INTO queue_runs (item_id, ahead, attempt, diagnostic, tested, state, result, created_at)
       VALUES (?, ?, ?, ?, ?, 'running', NULL, ?)
       ON CONFLICT (item_id, ahead, attempt, diagnostic) DO UPDATE SET tested = excluded.tested, state = 'running'`,
      [
        run.itemId,
        run.ahead.join(' '),
        run.attempt,
        run.diagnostic ?? '',
        JSON.stringify(run.tested),
        Date.now(),
      ],
    );
  }

  async finishRun(
    run: Pick<QueueRunRecord, 'itemId' | 'ahead' | 'attempt' | 'diagnostic'>,
    state: 'done' | 'cancelled',
    result?: unknown,
  ): Promise<void> {
    await this.db.run(
      'UPDATE queue_runs SET state = ?, result = ? WHERE item_id = ? AND ahead = ? AND attempt = ? AND diagnostic = ?',
      [
        state,
        result === undefined ? null : JSON.stringify(result),
        run.itemId,
        run.ahead.join(' '),
        run.attempt,
        run.diagnostic ?? '',
      ],
    );
  }

  /** Evaluations a previous process left running (the restart runs them again). */
  async runningRuns(): Promise<QueueRunRecord[]> {
    const rows = await this.db.all(
      `SELECT * FROM queue_runs WHERE state = 'running' ORDER BY created_at, ${insertionOrder(this.db.dialect)}`,
    );
    return rows.map(toRun).filter((r): r is QueueRunRecord => r !== undefined);
  }

  /** The item's newest passing evaluation (not a diagnostic one): the commits it lands as. */
  async lastPass(itemId: string): Promise<QueueRunRecord | undefined> {
    const rows = (await this.db.all(
      `SELECT * FROM queue_runs WHERE item_id = ? AND diagnostic = '' AND state = 'done'
       ORDER BY created_at DESC, ${insertionOrder(this.db.dialect)} DESC`,
      [itemId],
    )) as Array<{ result: string | null }>;
    const pass = rows.find((r) => r.result !== null && JSON.parse(r.result)?.outcome === 'pass');
    return pass ? toRun(pass) : undefined;
  }

  /** A tested commit built before for these inputs (`key`: repository, branch, onto, heads). */
  async builtCommit(key: string): Promise<string | undefined> {
    const row = (await this.db.get('SELECT sha FROM queue_commits WHERE key = ?', [key])) as
      | { sha: string }
      | undefined;
    return row?.sha;
  }

  async keepCommit(key: string, sha: string): Promise<void> {
    await this.db.run(
      'INSERT INTO queue_commits (key, sha, created_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING',
      [key, sha, Date.now()],
    );
  }

  /** The note the item's newest finished evaluation left (why it failed, in the App's words), if any. */
  async lastNote(itemId: string): Promise<string | undefined> {
    const rows = (await this.db.all(
      `SELECT result FROM queue_runs WHERE item_id = ? AND state = 'done'
       ORDER BY created_at DESC, ${insertionOrder(this.db.dialect)} DESC`,
      [itemId],
    )) as Array<{ result: string | null }>;
    const note = rows
      .map((r) => (r.result ? JSON.parse(r.result)?.note : undefined))
      .find((n) => typeof n === 'string');
    return note;
  }
}
