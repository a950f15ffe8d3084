/**
 * The few SQL fragments SQLite and PostgreSQL spell differently, in one place; every other
 * statement in the tables is the same text on both. JSON columns are TEXT on both backends
 * (cast to jsonb where PostgreSQL reads into them).
 */
import type { Dialect, Queryable } from './store-driver.ts';

/** A FROM item over the strings of a JSON array (`expr`), as rows of one column `value`. */
export function jsonStrings(d: Dialect, expr: string, alias: string): string {
  return d === 'sqlite'
    ? `json_each(${expr}) ${alias}`
    : `jsonb_array_elements_text(CAST(${expr} AS jsonb)) AS ${alias}(value)`;
}

/** A FROM item over the objects of a JSON array (`expr`), each as `alias.value`. */
export function jsonObjects(d: Dialect, expr: string, alias: string): string {
  return d === 'sqlite'
    ? `json_each(${expr}) ${alias}`
    : `jsonb_array_elements(CAST(${expr} AS jsonb)) AS ${alias}(value)`;
}

/** The text of field `field` of the object `alias.value` (from `jsonObjects`). */
export function jsonField(d: Dialect, alias: string, field: string): string {
  return d === 'sqlite' ? `json_extract(${alias}.value, '$.${field}')` : `${alias}.value->>'${field}'`;
}

/**
 * The column that orders a table's rows by insertion, for ties on a time: SQLite's implicit
 * `rowid`, a `seq` identity column on PostgreSQL (store-schema-postgres.ts).
 */
export function insertionOrder(d: Dialect): string {
  return d === 'sqlite' ? 'rowid' : 'seq';
}

/**
 * Inside a transaction: makes every other transaction that calls this for `table` wait for this
 * one to end, while plain reads go on (a read, a decision and a write on the table as one step
 * across replicas). PostgreSQL locks the table in a mode that conflicts with itself and with
 * writes; SQLite's transactions (BEGIN IMMEDIATE) already hold the database's one write lock.
 */
export async function serialiseWrites(tx: Queryable, table: string): Promise<void> {
  if (tx.dialect === 'postgres') await tx.exec(`LOCK TABLE ${table} IN SHARE ROW EXCLUSIVE MODE`);
}

/** ` FOR UPDATE` on PostgreSQL (the rows read are locked until the transaction ends); nothing on SQLite, whose transactions hold the one write lock. */
export function forUpdate(d: Dialect): string {
  return d === 'postgres' ? ' FOR UPDATE' : '';
}
