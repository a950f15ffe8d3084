/**
 * Rows read back from the App's SQLite file are input like any other: a disk fault, a hand edit
 * or a row another Tandem version wrote may hold a bad JSON column or a state name this one does
 * not know. Each table parses what it reads with a zod schema through `rowReader`; a row that
 * does not fit throws `CorruptRowError`, naming the table, the column and the row, so the
 * webhook or evaluation that met it fails as infrastructure trouble instead of acting on it.
 */
import { z } from 'zod';

export class CorruptRowError extends Error {
  constructor(
    readonly table: string,
    readonly column: string,
    readonly rowId: string,
    detail: string,
  ) {
    super(
      `the App's database holds a corrupt row: table ${table}, column ${column}, row ${rowId}: ${detail}`,
    );
    this.name = 'CorruptRowError';
  }
}

/** A TEXT column holding JSON: parsed, then validated by `inner`. */
export function jsonColumn<T extends z.ZodType>(inner: T) {
  return z
    .string()
    .transform((text, ctx): unknown => {
      try {
        return JSON.parse(text);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: `not valid JSON (${(e as Error).message})` });
        return z.NEVER;
      }
    })
    .pipe(inner);
}

/** SQLite's integer boolean (0 or 1) as a boolean. */
export const flagColumn = z.union([z.literal(0), z.literal(1)]).transform((n) => n === 1);

export interface RowReader<T> {
  /** The row `.get()` returned (undefined when there was none), parsed. */
  one(raw: unknown): T | undefined;
  /** The rows `.all()` returned, parsed. */
  many(raw: readonly unknown[]): T[];
}

/** What a column held, short enough for a message (a corrupt JSON column can be long). */
function shown(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Parses the rows of `table` with `schema`; `idColumns` are the (selected) columns that name a
 * row in an error, e.g. `['id']` or `['pullKey', 'headSha']`.
 */
export function rowReader<S extends z.ZodType>(
  table: string,
  idColumns: readonly string[],
  schema: S,
): RowReader<z.output<S>> {
  const parse = (raw: unknown): z.output<S> => {
    const r = schema.safeParse(raw);
    if (r.success) return r.data;
    const row = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const issue = r.error.issues[0];
    const column = typeof issue?.path[0] === 'string' ? issue.path[0] : '(row)';
    const id = idColumns.map((c) => String(row[c] ?? '?')).join(' ');
    const found = column in row ? ` (found ${shown(row[column])})` : '';
    throw new CorruptRowError(table, column, id, `${issue?.message ?? 'does not parse'}${found}`);
  };
  return {
    one: (raw) => (raw === undefined ? undefined : parse(raw)),
    many: (rows) => rows.map(parse),
  };
}
