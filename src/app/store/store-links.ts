/**
 * The link index: links a PR's title and body make (`source = 'body'`) and `/tandem link`
 * commands (`source = 'command'`), queried both ways (the reverse lookup finds PRs pointing at
 * one), and the pairs `/tandem unlink` separated.
 */
import type Database from 'better-sqlite3';
import { type PullRef, parsePullKey, pullKey } from '../../core/pull-ref.ts';

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
    const rows = this.db.prepare('SELECT DISTINCT to_key FROM links WHERE from_key = ?').all(key) as Array<{
      to_key: string;
    }>;
    return rows.map((r) => parsePullKey(r.to_key));
  }

  /** Reverse lookup: PRs that link to this one. */
  to(key: string): string[] {
    const rows = this.db.prepare('SELECT DISTINCT from_key FROM links WHERE to_key = ?').all(key) as Array<{
      from_key: string;
    }>;
    return rows.map((r) => r.from_key);
  }

  addManual(from: string, to: string, pair: string): void {
    this.db
      .prepare(`INSERT OR IGNORE INTO links (from_key, to_key, source) VALUES (?, ?, 'command')`)
      .run(from, to);
    this.db.prepare('DELETE FROM unlinks WHERE pair = ?').run(pair);
  }

  remove(from: string, to: string, pair: string): void {
    this.db
      .prepare(`DELETE FROM links WHERE from_key = ? AND to_key = ? AND source = 'command'`)
      .run(from, to);
    this.db
      .prepare(`DELETE FROM links WHERE from_key = ? AND to_key = ? AND source = 'command'`)
      .run(to, from);
    this.db.prepare('INSERT OR IGNORE INTO unlinks (pair) VALUES (?)').run(pair);
  }

  unlinkedPairs(): Set<string> {
    const rows = this.db.prepare('SELECT pair FROM unlinks').all() as Array<{ pair: string }>;
    return new Set(rows.map((r) => r.pair));
  }
}
