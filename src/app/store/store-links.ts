/**
 * The link index: links a PR's title and body make (`source = 'body'`) and `/tandem link`
 * commands (`source = 'command'`, with who wrote each), queried both ways (the reverse lookup
 * finds PRs pointing at one), the pairs `/tandem unlink` separated, and who has write access
 * where (`writers`): what decides whether a link counts backwards (`linked-set.ts`'s consent).
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { type PullRef, parsePullKey, pullKey } from '../../core/pull-ref.ts';
import { loginKey, repoKey } from '../../core/repo-name.ts';
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

export class LinksTable {
  constructor(private readonly db: Database.Database) {}

  /** Replaces the links a PR's title and body make (call inside the PR's upsert transaction). */
  replaceBodyLinks(from: string, links: readonly PullRef[]): void {
    this.db.prepare(`DELETE FROM links WHERE from_key = ? AND source = 'body'`).run(from);
    const insert = this.db.prepare(
      `INSERT OR IGNORE INTO links (from_key, to_key, source) VALUES (?, ?, 'body')`,
    );
    for (const l of links) insert.run(from, pullKey(l));
  }

  /** Every link from a PR (body and `/tandem link`), as references. */
  from(key: string): PullRef[] {
    const rows = this.db.prepare('SELECT * FROM links WHERE from_key = ?').all(key);
    return [...new Set(links.many(rows).map((r) => r.to_key))].map(parsePullKey);
  }

  /** Reverse lookup: PRs that link to this one. */
  to(key: string): string[] {
    const rows = this.db.prepare('SELECT * FROM links WHERE to_key = ?').all(key);
    return [...new Set(links.many(rows).map((r) => r.from_key))];
  }

  addManual(from: string, to: string, pair: string, by: string): void {
    this.db
      .prepare(`INSERT OR IGNORE INTO links (from_key, to_key, source) VALUES (?, ?, 'command')`)
      .run(from, to);
    this.db
      .prepare('INSERT OR IGNORE INTO link_writers (from_key, to_key, login) VALUES (?, ?, ?)')
      .run(from, to, by);
    this.db.prepare('DELETE FROM unlinks WHERE pair = ?').run(pair);
  }

  /**
   * Who wrote the link `from → to`: the author of `from` for a body link (`author`), everyone
   * who commanded it with `/tandem link`.
   */
  writersOf(from: string, to: string, author: string | undefined): string[] {
    const rows = links.many(
      this.db.prepare('SELECT * FROM links WHERE from_key = ? AND to_key = ?').all(from, to),
    );
    const out = new Set<string>();
    if (author && rows.some((r) => r.source === 'body')) out.add(author);
    const commanders = linkWriters.many(
      this.db.prepare('SELECT * FROM link_writers WHERE from_key = ? AND to_key = ?').all(from, to),
    );
    for (const c of commanders) out.add(c.login);
    return [...out];
  }

  /** Records what GitHub said about `login`'s write access to `repo`. */
  recordWriter(repo: string, login: string, writer: boolean): void {
    this.db
      .prepare(
        `INSERT INTO writers (repo, login, writer, checked_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (repo, login) DO UPDATE SET writer = excluded.writer, checked_at = excluded.checked_at`,
      )
      .run(repoKey(repo), loginKey(login), writer ? 1 : 0, Date.now());
  }

  /** The last answer about `login`'s write access to `repo`; undefined when never asked. */
  isWriter(repo: string, login: string): boolean | undefined {
    const row = this.db
      .prepare('SELECT repo, login, writer FROM writers WHERE repo = ? AND login = ?')
      .get(repoKey(repo), loginKey(login));
    return writers.one(row)?.writer;
  }

  remove(from: string, to: string, pair: string): void {
    this.db
      .prepare(`DELETE FROM links WHERE from_key = ? AND to_key = ? AND source = 'command'`)
      .run(from, to);
    this.db
      .prepare(`DELETE FROM links WHERE from_key = ? AND to_key = ? AND source = 'command'`)
      .run(to, from);
    this.db
      .prepare(
        'DELETE FROM link_writers WHERE (from_key = ? AND to_key = ?) OR (from_key = ? AND to_key = ?)',
      )
      .run(from, to, to, from);
    this.db.prepare('INSERT OR IGNORE INTO unlinks (pair) VALUES (?)').run(pair);
  }

  unlinkedPairs(): Set<string> {
    return new Set(unlinks.many(this.db.prepare('SELECT pair FROM unlinks').all()).map((r) => r.pair));
  }
}
