/**
 * The PostgreSQL driver numbers the store's `?` placeholders in order and leaves quoted text
 * alone (a `?` inside a string literal or a quoted name is not a parameter); the URL a message
 * shows has its password masked; a server that does not answer stops the open with a message
 * naming the database (infrastructure trouble, not a crash later).
 */
import { describe, expect, it } from 'vitest';
import { numberPlaceholders, shownUrl } from '../../src/app/store/postgres-driver.ts';
import { Store } from '../../src/app/store/store.ts';

describe('numberPlaceholders', () => {
  it('numbers placeholders in order, outside quotes only', () => {
    expect(numberPlaceholders('SELECT ? AS a, ? AS "b?" FROM t WHERE x = ? AND y = \'?\'')).toBe(
      'SELECT $1 AS a, $2 AS "b?" FROM t WHERE x = $3 AND y = \'?\'',
    );
    expect(numberPlaceholders(`SELECT json_extract(m.value, '$.key') FROM t WHERE k = ?`)).toBe(
      `SELECT json_extract(m.value, '$.key') FROM t WHERE k = $1`,
    );
    expect(numberPlaceholders('SELECT 1')).toBe('SELECT 1');
  });
});

describe('shownUrl', () => {
  it('masks the password and keeps the rest', () => {
    expect(shownUrl('postgres://tandem:s3cret@db:5432/tandem')).toBe('postgres://tandem:***@db:5432/tandem');
    expect(shownUrl('postgres://postgres@127.0.0.1:54329/t')).toBe('postgres://postgres@127.0.0.1:54329/t');
  });
});

describe('Store.open on a PostgreSQL URL', () => {
  it('names the database, without its password, when the server does not answer', async () => {
    // Port 1 on loopback: nothing listens there, the connection is refused at once.
    await expect(Store.open('postgres://tandem:s3cret@127.0.0.1:1/tandem')).rejects.toThrow(
      'DATABASE_URL (postgres://tandem:***@127.0.0.1:1/tandem): no PostgreSQL server answers at 127.0.0.1:1 (connect ECONNREFUSED',
    );
  });
});
