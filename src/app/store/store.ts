/**
 * The App's memory in one SQLite file, one small repository per table: deliveries seen
 * (redelivery does nothing twice), pull requests and their links (the reverse-lookup index,
 * manual link commands), evaluations (so a restart re-queues what was queued or running), their
 * check runs, and hand-offs to GitHub Actions. The schema is versioned and migrated on open
 * (`store-schema.ts`).
 *
 * `better-sqlite3` is a native module only the App needs: it is an optional dependency, loaded
 * here on first open, so installing the CLI or the Action never compiles it.
 */
import type Database from 'better-sqlite3';
import { EvaluationStates } from './evaluation-states.ts';
import { CheckRunsTable } from './store-check-runs.ts';
import { CommentStatesTable } from './store-comment-states.ts';
import { DeliveriesTable } from './store-deliveries.ts';
import { EvaluationsTable } from './store-evaluations.ts';
import { HandoffStore } from './store-handoffs.ts';
import { LinkSearchesTable } from './store-link-searches.ts';
import { LinksTable } from './store-links.ts';
import { MergesTable } from './store-merge-command.ts';
import { MergeGroupsTable } from './store-merge-groups.ts';
import { PullsTable } from './store-pulls.ts';
import { migrate } from './store-schema.ts';
import { SetQueueTable } from './store-set-queue.ts';

export type { EvaluationState } from './evaluation-states.ts';
export type { StoredCheckRun } from './store-check-runs.ts';
export type { EvaluationVerdict, StoredEvaluation } from './store-evaluations.ts';
export type { MergeAttempt } from './store-merge-command.ts';
export type { StoredPull } from './store-pulls.ts';

type DatabaseConstructor = typeof Database;

/** The driver, or an error that says how to get it (it is optional in package.json). */
async function loadSqlite(): Promise<DatabaseConstructor> {
  try {
    return (await import('better-sqlite3')).default;
  } catch (e) {
    throw new Error(
      `the Tandem GitHub App keeps its state in SQLite and needs the optional dependency better-sqlite3, which is not installed or did not build (${(e as Error).message}). Install it with \`npm install better-sqlite3\` (it needs a C++ toolchain when no prebuilt binary fits this platform).`,
    );
  }
}

export class Store {
  readonly deliveries: DeliveriesTable;
  readonly links: LinksTable;
  /** Reverse-link search answers, so each PR is searched once an hour at most. */
  readonly linkSearches: LinkSearchesTable;
  readonly pulls: PullsTable;
  readonly evaluations: EvaluationStates;
  readonly checkRuns: CheckRunsTable;
  readonly handoffs: HandoffStore;
  /** Merge queue groups whose check is open (resumed after a restart). */
  readonly mergeGroups: MergeGroupsTable;
  /** `/tandem merge` attempts. */
  readonly merges: MergesTable;
  /** Each member PR's sticky comment as state, re-rendered whole on every update. */
  readonly comments: CommentStatesTable;
  /** The linked-set merge queue (issue 28). */
  readonly setQueue: SetQueueTable;

  /** Opens (creating or migrating) the database file. */
  static async open(file: string): Promise<Store> {
    const Sqlite = await loadSqlite();
    return new Store(new Sqlite(file), file);
  }

  private constructor(
    readonly db: Database.Database,
    file: string,
  ) {
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    // WAL + NORMAL: durable across an App crash (what restarts need), one fsync per checkpoint.
    this.db.pragma('synchronous = NORMAL');
    try {
      migrate(this.db, file);
    } catch (e) {
      this.db.close();
      throw e;
    }
    this.deliveries = new DeliveriesTable(this.db);
    this.links = new LinksTable(this.db);
    this.linkSearches = new LinkSearchesTable(this.db);
    this.pulls = new PullsTable(this.db, this.links);
    this.evaluations = new EvaluationStates(new EvaluationsTable(this.db));
    this.checkRuns = new CheckRunsTable(this.db);
    this.handoffs = new HandoffStore(this.db);
    this.mergeGroups = new MergeGroupsTable(this.db);
    this.merges = new MergesTable(this.db);
    this.comments = new CommentStatesTable(this.db);
    this.setQueue = new SetQueueTable(this.db);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
