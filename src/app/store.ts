/**
 * The App's memory in one SQLite file, one small repository per table: deliveries seen
 * (redelivery does nothing twice), pull requests and their links (the reverse-lookup index,
 * manual link commands), evaluations (so a restart re-queues what was queued or running), their
 * check runs, and hand-offs to GitHub Actions. Each table creates itself if missing, so an older
 * database just gains the tables added since.
 */
import Database from 'better-sqlite3';
import { HandoffStore } from './handoff-store.ts';
import { CheckRunsTable } from './store-check-runs.ts';
import { DeliveriesTable } from './store-deliveries.ts';
import { EvaluationsTable } from './store-evaluations.ts';
import { LinksTable } from './store-links.ts';
import { PullsTable } from './store-pulls.ts';

export type { StoredCheckRun } from './store-check-runs.ts';
export type { EvaluationState, StoredEvaluation } from './store-evaluations.ts';
export type { StoredPull } from './store-pulls.ts';

export class Store {
  readonly db: Database.Database;
  readonly deliveries: DeliveriesTable;
  readonly links: LinksTable;
  readonly pulls: PullsTable;
  readonly evaluations: EvaluationsTable;
  readonly checkRuns: CheckRunsTable;
  readonly handoffs: HandoffStore;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    // WAL + NORMAL: durable across an App crash (what restarts need), one fsync per checkpoint.
    this.db.pragma('synchronous = NORMAL');
    this.deliveries = new DeliveriesTable(this.db);
    this.links = new LinksTable(this.db);
    this.pulls = new PullsTable(this.db, this.links);
    this.evaluations = new EvaluationsTable(this.db);
    this.checkRuns = new CheckRunsTable(this.db);
    this.handoffs = new HandoffStore(this.db);
  }

  close(): void {
    this.db.close();
  }
}
