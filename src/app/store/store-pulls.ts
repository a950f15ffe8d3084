/**
 * Pull requests the App has seen (webhooks and API reads): state, heads and branches, with the
 * links their title and body make kept in the link index in the same transaction.
 */
import { z } from 'zod';
import { type PullRef, pullKey } from '../../core/pull-ref.ts';
import { type RepoVisibility, repoVisibilitySchema } from '../../core/repo-visibility.ts';
import type { Driver } from './store-driver.ts';
import type { LinksTable } from './store-links.ts';
import { rowReader } from './stored-row.ts';

const PULL_STATES = ['open', 'closed', 'merged'] as const;

export interface StoredPull {
  key: string;
  owner: string;
  repo: string;
  number: number;
  installationId: number;
  state: (typeof PULL_STATES)[number];
  headSha: string;
  headRef: string;
  /** `owner/name` of the head branch's repository (a fork's, or the base's own); unknown when unset. */
  headRepo?: string | undefined;
  baseRef: string;
  links: PullRef[];
  /** Who opened it (the writer of its body's links). */
  author?: string | undefined;
  visibility?: RepoVisibility | undefined;
}

/** Who opened a PR and its repository's visibility (an unknown visibility reads as unknown). */
const factsSchema = z.object({
  key: z.string(),
  author: z.string().nullable(),
  visibility: z.string().nullable(),
});
const pullRowSchema = factsSchema.extend({
  owner: z.string(),
  repo: z.string(),
  number: z.number().int(),
  installation_id: z.number().int(),
  state: z.enum(PULL_STATES),
  head_sha: z.string(),
  head_ref: z.string(),
  head_repo: z.string().nullable(),
  base_ref: z.string(),
});
type PullRow = z.output<typeof pullRowSchema>;
const pullRows = rowReader('pulls', ['key'], pullRowSchema);
const factRows = rowReader('pulls', ['key'], factsSchema);

export class PullsTable {
  constructor(
    private readonly db: Driver,
    private readonly links: LinksTable,
  ) {}

  /** Records a PR and replaces the links its title and body make, in one transaction. */
  async upsert(pull: Omit<StoredPull, 'key'>): Promise<StoredPull> {
    const key = pullKey(pull);
    await this.db.transaction(async (tx) => {
      // Qualified `pulls.` names are the stored row (PostgreSQL finds bare ones ambiguous).
      await tx.run(
        `INSERT INTO pulls (key, owner, repo, number, installation_id, state, head_sha, head_ref, head_repo, base_ref, updated_at, author, visibility)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET installation_id = excluded.installation_id, state = excluded.state,
           head_sha = excluded.head_sha, head_ref = excluded.head_ref, head_repo = excluded.head_repo, base_ref = excluded.base_ref,
           updated_at = excluded.updated_at, author = COALESCE(excluded.author, pulls.author),
           visibility = COALESCE(excluded.visibility, pulls.visibility)`,
        [
          key,
          pull.owner,
          pull.repo,
          pull.number,
          pull.installationId,
          pull.state,
          pull.headSha,
          pull.headRef,
          pull.headRepo ?? null,
          pull.baseRef,
          Date.now(),
          pull.author ?? null,
          pull.visibility ?? null,
        ],
      );
      await this.links.replaceBodyLinks(key, pull.links, tx);
    });
    return { ...pull, key };
  }

  async get(key: string): Promise<StoredPull | undefined> {
    const row = pullRows.one(await this.db.get('SELECT * FROM pulls WHERE key = ?', [key]));
    return row ? this.toPull(row) : undefined;
  }

  /** Who opened a PR and how visible its repository is, without reading its links. */
  async facts(key: string): Promise<{ author?: string; visibility?: RepoVisibility } | undefined> {
    const row = factRows.one(
      await this.db.get('SELECT key, author, visibility FROM pulls WHERE key = ?', [key]),
    );
    return row ? factsOf(row) : undefined;
  }

  /** Open PRs of an installation with this head branch name (opt-in grouping). */
  async withHeadRef(installationId: number, headRef: string): Promise<StoredPull[]> {
    const rows = await this.db.all(
      `SELECT * FROM pulls WHERE installation_id = ? AND head_ref = ? AND state = 'open'`,
      [installationId, headRef],
    );
    return Promise.all(pullRows.many(rows).map((r) => this.toPull(r)));
  }

  private async toPull(row: PullRow): Promise<StoredPull> {
    return {
      key: row.key,
      owner: row.owner,
      repo: row.repo,
      number: row.number,
      installationId: row.installation_id,
      state: row.state,
      headSha: row.head_sha,
      headRef: row.head_ref,
      ...(row.head_repo ? { headRepo: row.head_repo } : {}),
      baseRef: row.base_ref,
      links: await this.links.from(row.key),
      ...factsOf(row),
    };
  }
}

/** The author and visibility columns as read back (an unknown visibility is left out). */
function factsOf(row: { author: string | null; visibility: string | null }): {
  author?: string;
  visibility?: RepoVisibility;
} {
  const v = repoVisibilitySchema.safeParse(row.visibility);
  return { ...(row.author ? { author: row.author } : {}), ...(v.success ? { visibility: v.data } : {}) };
}
