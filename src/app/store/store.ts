/**
 * The App's memory, one small repository per table: deliveries seen (redelivery does nothing
 * twice), pull requests and their links (the reverse-lookup index, manual link commands),
 * evaluations (so a restart re-queues what was queued or running), their check runs, and
 * hand-offs to GitHub Actions. Two backends behind one async interface (`store-driver.ts`):
 * one SQLite file by default (no server to install), or a PostgreSQL database named by a
 * `postgres://` URL (`DATABASE_URL`), which several App processes can share. The schema is
 * versioned and migrated on open (`store-schema.ts`, `store-schema-postgres.ts`).
 */
import { EvaluationStates, type Transition } from './evaluation-states.ts';
import { openPostgres } from './postgres-driver.ts';
import { openSqlite } from './sqlite-driver.ts';
import { CheckRunsTable } from './store-check-runs.ts';
import { CommentStatesTable } from './store-comment-states.ts';
import { DeliveriesTable } from './store-deliveries.ts';
import type { Driver } from './store-driver.ts';
import { EvaluationsTable } from './store-evaluations.ts';
import { HandoffStore } from './store-handoffs.ts';
import { LeasesTable } from './store-leases.ts';
import { LinkSearchesTable } from './store-link-searches.ts';
import { LinksTable } from './store-links.ts';
import { MergesTable } from './store-merge-command.ts';
import { MergeGroupsTable } from './store-merge-groups.ts';
import { MergeHoldsTable } from './store-merge-holds.ts';
import { PacingTable } from './store-pacing.ts';
import { PullsTable } from './store-pulls.ts';
import { migrate } from './store-schema.ts';
import { SetQueueTable } from './store-set-queue.ts';
import { TransactionDriver } from './store-transaction.ts';

export type { EvaluationState } from './evaluation-states.ts';
export type { StoredCheckRun } from './store-check-runs.ts';
export type { EvaluationVerdict, StoredEvaluation } from './store-evaluations.ts';
export type { MergeAttempt } from './store-merge-command.ts';
export type { HeldRequest } from './store-merge-holds.ts';
export type { StoredPull } from './store-pulls.ts';

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
  /** Work one replica holds at a time (a set's evaluation, a member's merge). */
  readonly leases: LeasesTable;
  /** GitHub's secondary-limit windows, counted per installation across replicas. */
  readonly pacing: PacingTable;
  /** Sets `/tandem merge` is merging, and the requests held until it ends. */
  readonly mergeHolds: MergeHoldsTable;

  /** True for a target `Store.open` reads as a PostgreSQL URL rather than a file path. */
  static isPostgresUrl(target: string): boolean {
    return /^postgres(ql)?:\/\//i.test(target);
  }

  /**
   * Opens (creating or migrating) the database: a SQLite file path, or a `postgres://` URL
   * (the database must exist; its tables are created on first open).
   */
  static async open(target: string): Promise<Store> {
    const driver = Store.isPostgresUrl(target) ? await openPostgres(target) : await openSqlite(target);
    return Store.on(driver);
  }

  /** A store over a driver already open (migrated here); the benchmark passes its own. */
  static async on(driver: Driver): Promise<Store> {
    try {
      await migrate(driver);
      const store = new Store(driver);
      await store.handoffs.prune();
      return store;
    } catch (e) {
      await driver.close();
      throw e;
    }
  }

  private constructor(readonly db: Driver) {
    this.deliveries = new DeliveriesTable(db);
    this.links = new LinksTable(db);
    this.linkSearches = new LinkSearchesTable(db);
    this.pulls = new PullsTable(db, this.links);
    this.evaluations = new EvaluationStates(new EvaluationsTable(db));
    this.checkRuns = new CheckRunsTable(db);
    this.handoffs = new HandoffStore(db);
    this.mergeGroups = new MergeGroupsTable(db);
    this.merges = new MergesTable(db);
    this.comments = new CommentStatesTable(db);
    this.setQueue = new SetQueueTable(db);
    this.leases = new LeasesTable(db);
    this.pacing = new PacingTable(db);
    this.mergeHolds = new MergeHoldsTable(db);
  }

  /**
   * Runs `fn` in one transaction over a store bound to it: everything `fn` writes through `tx` is
   * committed when it resolves, nothing when it throws. Use only `tx` inside (on SQLite the store
   * itself waits for the transaction's end). Evaluation transitions made inside are announced on
   * this store once committed. On PostgreSQL a transaction ended by a deadlock or a serialization
   * failure is run again whole, `fn` included (so `fn` writes only through `tx`), and reported
   * under `name` when it keeps failing (`store-driver.ts`); inside another transaction it is not.
   */
  async transaction<T>(fn: (tx: Store) => Promise<T>, name = fn.name || 'unnamed'): Promise<T> {
    let announced: Transition[] = [];
    const out = await this.db.transaction(async (q) => {
      // A run again after a conflict announces only what its own attempt did.
      announced = [];
      const tx = new Store(new TransactionDriver(q, this.db.target));
      tx.evaluations.on('transition', (t) => announced.push(t));
      return fn(tx);
    }, name);
    for (const t of announced) this.evaluations.emit('transition', t);
    return out;
  }

  /** Answers when the database answers a query (the readiness probe); throws when it cannot. */
  async ping(): Promise<void> {
    await this.db.get('SELECT 1 AS one');
  }

  /** Closes the file or the connection pool (idempotent). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.db.close();
  }

  private closed = false;
}
