/**
 * What GitHub's search answered about the PRs linking to a PR, and when: the reverse-link search
 * allows 30 requests a minute, far fewer than a busy org's evaluations need if each member is
 * searched each time. The webhook-fed link index (`store-links.ts`) sees every link written after
 * the App's installation, so search only has to find what was written before, or while the App
 * was down: one answer per PR per `LINK_SEARCH_TTL_MS` is enough (`linking/resolve-set.ts`).
 */
import { z } from 'zod';
import type { Driver } from './store-driver.ts';
import { jsonColumn, rowReader } from './stored-row.ts';

/** How long a search answer stands in for a new search (bounds what missed webhooks can hide). */
export const LINK_SEARCH_TTL_MS = 60 * 60 * 1000;

const answers = rowReader(
  'link_searches',
  ['pull_key'],
  z.object({ pull_key: z.string(), answer: jsonColumn(z.array(z.string())) }),
);

export class LinkSearchesTable {
  constructor(private readonly db: Driver) {}

  /** The PR keys the last search found linking to `key`, if it ran after `since` (ms). */
  async answer(key: string, since: number): Promise<string[] | undefined> {
    const row = await this.db.get(
      'SELECT pull_key, answer FROM link_searches WHERE pull_key = ? AND searched_at >= ?',
      [key, since],
    );
    return answers.one(row)?.answer;
  }

  async record(key: string, found: readonly string[], at = Date.now()): Promise<void> {
    await this.db.run(
      `INSERT INTO link_searches (pull_key, answer, searched_at) VALUES (?, ?, ?)
       ON CONFLICT (pull_key) DO UPDATE SET answer = excluded.answer, searched_at = excluded.searched_at`,
      [key, JSON.stringify(found), at],
    );
  }

  /**
   * The App saw the PR opened: nothing could link to it before it existed, and every link written
   * since reaches the index by webhook, so that counts as an empty answer (an earlier one stays).
   */
  async openedSeen(key: string, at = Date.now()): Promise<void> {
    await this.db.run(
      `INSERT INTO link_searches (pull_key, answer, searched_at) VALUES (?, '[]', ?)
       ON CONFLICT (pull_key) DO NOTHING`,
      [key, at],
    );
  }
}
