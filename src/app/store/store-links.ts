/**
 * The link index: links a PR's title and body make (`source = 'body'`) and `/tandem link`
 * commands (`source = 'command'`, with who wrote each), queried both ways (the reverse lookup
 * finds PRs pointing at one), the pairs `/tandem unlink` separated, and who has write access
 * where (`writers`): what decides whether a link counts backwards (`linked-set.ts`'s consent).
 */
import { z } from 'zod';
import { type PullRef, parsePullKey, pullKey } from '../../core/pull-ref.ts';
import { loginKey, repoKey } from '../../core/repo-name.ts';
import type { Driver, Queryable } from './store-driver.ts';
import { flagColumn, rowReader } from './stored-row.ts';

const key = z.string().min(1);
const links = rowReader(
  'links',
  ['from_key', 'to_key'],
  z.object({ from_key: key, to_key: key, source: z.enum(['body', 'command']) }),
);
const linkWriters = rowReader(
  'link_writers',
  ['from_key', 'to_key'],
  z.object({ from_key: key, to_key: key, login: key }),
);
const writers = rowReader(
  'writers',
  ['repo', 'login'],
  z.object({ repo: key, login: key, writer: flagColumn }),
);
const unlinks = rowReader('unlinks', ['pair'], z.object({ pair: key }));

const LINK = 'INSERT INTO links (from_key, to_key, source) VALUES (?, ?, ?) ON CONFLICT DO NOTHING';

export class LinksTable {
  constructor(private readonly db: Driver) {}

  /** Replaces the links a PR's title and body make (`q`: the PR's upsert transaction). */
  async replaceBodyLinks(from: string, links: readonly PullRef[], q: Queryable = this.db): Promise<void> {
    await q.run(`DELETE FROM links WHERE from_key = ? AND source = 'body'`, [from]);
    for (const l of links) await q.run(LINK, [from, pullKey(l), 'body']);
  }

  /** Every link from a PR (body and `/tandem link`), as references. */
  async from(key: string): Promise<PullRef[]> {
    const rows = await this.db.all('SELECT * FROM links WHERE from_key = ?', [key]);
    return [...new Set(links.many(rows).map((r) => r.to_key))].map(parsePullKey);
  }

  /** Reverse lookup: PRs that link to this one. */
  async to(key: string): Promise<string[]> {
    const rows = await this.db.all('SELECT * FROM links WHERE to_key = ?', [key]);
    return [...new Set(links.many(rows).map((r) => r.from_key))];
  }

  async addManual(from: string, to: string, pair: string, by: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(LINK, [from, to, 'command']);
      await tx.run(
        'INSERT INTO link_writers (from_key, to_key, login) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
        [from, to, by],
      );
      await tx.run('DELETE FROM unlinks WHERE pair = ?', [pair]);
    });
  }

  /**
   * Who wrote the link `from → to`: the author of `from` for a body link (`author`), everyone
   * who commanded it with `/tandem link`.
   */
  async writersOf(from: string, to: string, author: string | undefined): Promise<string[]> {
    const rows = links.many(
      await this.db.all('SELECT * FROM links WHERE from_key = ? AND to_key = ?', [from, to]),
    );
    const out = new Set<string>();
    if (author && rows.some((r) => r.source === 'body')) out.add(author);
    const commanders = linkWriters.many(
      await this.db.all('SELECT * FROM link_writers WHERE from_key = ? AND to_key = ?', [from, to]),
    );
    for (const c of commanders) out.add(c.login);
    return [...out];
  }

  /** Records what GitHub said about `login`'s write access to `repo`. */
  async recordWriter(repo: string, login: string, writer: boolean): Promise<void> {
    await this.db.run(
      `INSERT INTO writers (repo, login, writer, checked_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (repo, login) DO UPDATE SET writer = excluded.writer, checked_at = excluded.checked_at`,
      [repoKey(repo), loginKey(login), writer ? 1 : 0, Date.now()],
    );
  }

  /** The last answer about `login`'s write access to `repo`; undefined when never asked. */
  async isWriter(repo: string, login: string): Promise<boolean | undefined> {
    const row = await this.db.get('SELECT repo, login, writer FROM writers WHERE repo = ? AND login = ?', [
      repoKey(repo),
      loginKey(login),
    ]);
    return writers.one(row)?.writer;
  }

  async remove(from: string, to: string, pair: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run(
        `DELETE FROM links WHERE source = 'command' AND ((from_key = ? AND to_key = ?) OR (from_key = ? AND to_key = ?))`,
        [from, to, to, from],
      );
      await tx.run(
        'DELETE FROM link_writers WHERE (from_key = ? AND to_key = ?) OR (from_key = ? AND to_key = ?)',
        [from, to, to, from],
      );
      await tx.run('INSERT INTO unlinks (pair) VALUES (?) ON CONFLICT DO NOTHING', [pair]);
    });
  }

  async unlinkedPairs(): Promise<Set<string>> {
    return new Set(unlinks.many(await this.db.all('SELECT pair FROM unlinks')).map((r) => r.pair));
  }
}
