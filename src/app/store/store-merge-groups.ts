/**
 * Merge groups whose `Tandem` check is still open: the group as the webhook gave it and its
 * check run once created. A row lives from `checks_requested` until the check is completed, so
 * a restart resumes every group GitHub is still waiting on instead of leaving its check open.
 */
import { z } from 'zod';
import type { MergeGroup } from '../../core/merge-group.schema.ts';
import type { Driver } from './store-driver.ts';
import { rowReader } from './stored-row.ts';

/** The stored group, validated on read (a row from another version must not crash a restart). */
const storedGroupSchema = z.object({
  owner: z.string().min(1),
  repo: z.string().min(1),
  installationId: z.number().int(),
  headSha: z.string().min(1),
  headRef: z.string().min(1),
  baseSha: z.string().min(1),
  baseBranch: z.string().min(1),
  pullNumber: z.number().int().optional(),
});

const groupRows = rowReader(
  'merge_groups',
  ['key'],
  z.object({ key: z.string(), payload: z.string(), checkRunId: z.number().int().nullable() }),
);

export interface OpenMergeGroup {
  key: string;
  group: MergeGroup;
  checkRunId: number | null;
}

export class MergeGroupsTable {
  constructor(private readonly db: Driver) {}

  /**
   * Records a group being gated; true for the one request that inserted the row, false for a
   * second one for the same group (GitHub asking again, or another replica): it keeps the first,
   * and only the first's caller gates the group.
   */
  async open(key: string, group: MergeGroup): Promise<boolean> {
    const r = await this.db.run(
      'INSERT INTO merge_groups (key, payload, check_run_id, created_at) VALUES (?, ?, NULL, ?) ON CONFLICT (key) DO NOTHING',
      [key, JSON.stringify(group), Date.now()],
    );
    return r.changes === 1;
  }

  async setCheckRun(key: string, checkRunId: number): Promise<void> {
    await this.db.run('UPDATE merge_groups SET check_run_id = ? WHERE key = ?', [checkRunId, key]);
  }

  /** The group's check was completed: nothing left to resume. */
  async close(key: string): Promise<void> {
    await this.db.run('DELETE FROM merge_groups WHERE key = ?', [key]);
  }

  /** The open group `key`, undefined when its check was completed (or its row no longer parses). */
  async get(key: string): Promise<OpenMergeGroup | undefined> {
    const row = groupRows.one(
      await this.db.get('SELECT key, payload, check_run_id AS "checkRunId" FROM merge_groups WHERE key = ?', [
        key,
      ]),
    );
    return row ? parsedGroup(row) : undefined;
  }

  /**
   * Open groups, oldest first (groups opened in one millisecond by key, so both backends give one
   * order: PostgreSQL does not keep insertion order among ties); rows that no longer parse are dropped (and returned as `dropped`).
   */
  async all(): Promise<{ open: OpenMergeGroup[]; dropped: string[] }> {
    const rows = groupRows.many(
      await this.db.all(
        'SELECT key, payload, check_run_id AS "checkRunId" FROM merge_groups ORDER BY created_at, key',
      ),
    );
    const open: OpenMergeGroup[] = [];
    const dropped: string[] = [];
    for (const r of rows) {
      const group = parsedGroup(r);
      if (group) open.push(group);
      else {
        dropped.push(r.key);
        await this.close(r.key);
      }
    }
    return { open, dropped };
  }
}

/** A stored row as the group it holds, or undefined when its payload no longer parses. */
function parsedGroup(r: {
  key: string;
  payload: string;
  checkRunId: number | null;
}): OpenMergeGroup | undefined {
  let parsed: ReturnType<typeof storedGroupSchema.safeParse> | undefined;
  try {
    parsed = storedGroupSchema.safeParse(JSON.parse(r.payload));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) return undefined;
  const { pullNumber, ...g } = parsed.data;
  return { key: r.key, group: { ...g, pullNumber }, checkRunId: r.checkRunId };
}
