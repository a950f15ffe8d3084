/**
 * A transaction PostgreSQL ended because it lost a race with concurrent ones (a deadlock, a
 * serialization failure: `transactionConflictCode`) committed nothing, so it is run again whole,
 * in process: a few attempts, each after a short random pause (two transactions that deadlocked
 * should not meet again in step). One that keeps losing is reported naming the transaction, how
 * many times it ran and the last SQLSTATE, as infrastructure trouble (`TransactionConflictError`).
 */

/**
 * The SQLSTATEs PostgreSQL ends a transaction with when it lost a race with concurrent ones
 * (40001 serialization failure, 40P01 deadlock detected): nothing of it was committed, and
 * running the whole transaction again can succeed.
 */
const CONFLICT_CODES: ReadonlySet<string> = new Set(['40001', '40P01']);

/** The conflict's SQLSTATE when `e` is such an error, else undefined. */
export function transactionConflictCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONFLICT_CODES.has(code) ? code : undefined;
}

/** How many times a conflicting transaction runs in all before the conflict is reported. */
export const CONFLICT_ATTEMPTS = 5;

/** The pause before attempt `n + 1`: random within `[0, 20·n)` ms plus 5 ms, so it grows and never aligns. */
function backoffMs(n: number): number {
  return 5 + Math.floor(Math.random() * 20 * n);
}

export class TransactionConflictError extends Error {
  override readonly name = 'TransactionConflictError';

  constructor(
    /** The transaction's name (`Store.transaction`'s `name`). */
    readonly transaction: string,
    readonly attempts: number,
    /** The last attempt's SQLSTATE (40001 or 40P01). */
    readonly code: string,
    target: string,
    cause: unknown,
  ) {
    super(
      `the store transaction "${transaction}" on ${target} conflicted with concurrent transactions ${attempts} times in a row (last: SQLSTATE ${code}, ${(cause as Error).message}); nothing of it was committed`,
      { cause },
    );
  }
}

/**
 * `once()` until it does not fail on a conflict, at most `CONFLICT_ATTEMPTS` times; any other
 * error is thrown at once. `onRetry` hears each conflict that is retried (tests count them).
 */
export async function retryOnConflict<T>(
  name: string,
  target: string,
  once: () => Promise<T>,
  onRetry?: (attempt: number, code: string) => void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await once();
    } catch (e) {
      const code = transactionConflictCode(e);
      if (code === undefined) throw e;
      if (attempt >= CONFLICT_ATTEMPTS) throw new TransactionConflictError(name, attempt, code, target, e);
      onRetry?.(attempt, code);
      await new Promise<void>((ok) => setTimeout(ok, backoffMs(attempt)));
    }
  }
}
