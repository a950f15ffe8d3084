/**
 * Merge groups whose `Tandem` check is still open: the group as the webhook gave it and its
 * check run once created. A row lives from `checks_requested` until the check is completed, so
 * a restart resumes every group GitHub is still waiting on instead of leaving its check open.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { MergeGroup } from '../../core/merge-group.schema.ts';
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
  constructor(private readonly db: Database.Database) {}

  /** Records a group being gated; a second request for the same group keeps the first. */
  open(key: string, group: MergeGroup): void {
    this.db
      .prepare(
        'INSERT INTO merge_groups (key, payload, check_run_id, created_at) VALUES (?, ?, NULL, ?) ON CONFLICT (key) DO NOTHING',
      )
      .run(key, JSON.stringify(group), Date.now());
  }

  setCheckRun(key: string, checkRunId: number): void {
    this.db.prepare('UPDATE merge_groups SET check_run_id = ? WHERE key = ?').run(checkRunId, key);
  }

  /** The group's check was completed: nothing left to resume. */
  close(key: string): void {
    this.db.prepare('DELETE FROM merge_groups WHERE key = ?').run(key);
  }

  /** Open groups, oldest first; rows that no longer parse are dropped (and returned as `dropped`). */
  all(): { open: OpenMergeGroup[]; dropped: string[] } {
    const rows = groupRows.many(
      this.db
        .prepare('SELECT key, payload, check_run_id AS checkRunId FROM merge_groups ORDER BY created_at')
        .all(),
    );
    const open: OpenMergeGroup[] = [];
    const dropped: string[] = [];
    for (const r of rows) {
      let parsed: ReturnType<typeof storedGroupSchema.safeParse> | undefined;
      try {
        parsed = storedGroupSchema.safeParse(JSON.parse(r.payload));
      } catch {
        parsed = undefined;
      }
      if (parsed?.success) {
        const { pullNumber, ...g } = parsed.data;
        open.push({ key: r.key, group: { ...g, pullNumber }, checkRunId: r.checkRunId });
      } else {
        dropped.push(r.key);
        this.close(r.key);
      }
    }
    return { open, dropped };
  }
}
