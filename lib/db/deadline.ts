/**
 * A deadline on every statement the app sends through postgres.js (docs/decisions.md
 * "PostgreSQL, poolers and outages"): a server that accepts connections but never answers, or a statement stuck
 * on a lock, fails the request within DB_REQUEST_TIMEOUT_MS (503, lib/db/unavailable.ts)
 * instead of hanging it. Transaction poolers (Supabase :6543, pgbouncer in transaction
 * mode) reject `statement_timeout` as a startup parameter, so the client enforces it:
 * each statement races a timer and is cancelled when it loses (best effort: the cancel
 * request needs the server to answer); BEGIN, COMMIT and ROLLBACK of a transaction are
 * bounded the same way. Migrations open their own connection (lib/db/migrate_lock.ts)
 * and get no deadline.
 */

export class DatabaseDeadlineError extends Error {
  override name = "DatabaseDeadlineError";
  readonly code = "DB_DEADLINE";
  constructor(ms: number) {
    super(`the database did not answer within ${ms} ms`);
  }
}

/** The part of a postgres.js query drizzle uses: awaitable, `.values()`, `.cancel()`. */
type PendingQuery = PromiseLike<unknown> & { values(): unknown; cancel(): unknown };

/** The part of a postgres.js Sql (pool, transaction or savepoint) drizzle uses. */
export type SqlLike = {
  unsafe(query: string, params?: unknown[], options?: unknown): PendingQuery;
  begin?(fn: (tx: SqlLike) => Promise<unknown>): Promise<unknown>;
  savepoint?(fn: (tx: SqlLike) => Promise<unknown>): Promise<unknown>;
  options?: unknown;
};

/** `p`, or DatabaseDeadlineError after `ms` (then `onLate` runs, e.g. to cancel). */
export function raceDeadline<T>(p: PromiseLike<T>, ms: number, onLate = () => {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onLate();
      reject(new DatabaseDeadlineError(ms));
    }, ms);
    p.then((v) => {
      clearTimeout(timer);
      resolve(v);
    }, (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/**
 * What postgres.js 3.4.9 (vendor/postgres) keeps on a query and this module reads: `state`
 * is set once the statement was written to a logged-in connection; `strings` and `args` are
 * what it writes then.
 */
type DriverQuery = PendingQuery & { state?: unknown; strings?: unknown; args?: unknown };

/**
 * Gives up on a statement that missed its deadline. A statement already sent is cancelled on
 * the server. One not sent yet is never handed to postgres.js `cancel()`: when it is the first
 * statement of a connection still logging in, that connection, once logged in, skips it and
 * never returns to the pool (3.4.9), and a pool that lost all its connections that way waits
 * for ever (docs/decisions.md "Deadline without cancelling unsent statements"). It is turned
 * into `SELECT 1` instead, so whichever connection sends it later does nothing and goes on.
 */
export function giveUp(q: PendingQuery, cancelSent = driverCancel): void {
  const d = q as DriverQuery;
  if (d.state) {
    cancelSent(q); // server-side cancel, if it still answers
  } else if (Array.isArray(d.strings) && Array.isArray(d.args)) {
    d.strings = ["SELECT 1"];
    d.args = [];
  }
}

/** postgres.js's own cancel (lib/db/pool_watchdog.ts sends its own: lib/db/cancel.ts). */
function driverCancel(q: PendingQuery): void {
  Promise.resolve(q.cancel()).catch(() => {});
}

/**
 * Told of each statement's outcome (lib/db/pool_watchdog.ts counts missed deadlines), and
 * how to cancel a sent statement that missed it.
 */
export type DeadlineHooks = {
  onDeadline(): void;
  onAnswer(): void;
  cancelSent?(q: PendingQuery): void;
};

const NO_HOOKS: DeadlineHooks = { onDeadline() {}, onAnswer() {} };

/** `p`, with its outcome reported to `hooks`. */
function reported<T>(p: Promise<T>, hooks: DeadlineHooks): Promise<T> {
  p.then(
    () => hooks.onAnswer(),
    (e) => e instanceof DatabaseDeadlineError ? hooks.onDeadline() : hooks.onAnswer(),
  );
  return p;
}

/** A statement that starts when awaited and gives up after `ms`. */
function guarded(q: PendingQuery, ms: number, hooks: DeadlineHooks) {
  let run: Promise<unknown> | null = null;
  const start = () =>
    run ??= reported(raceDeadline(q, ms, () => giveUp(q, hooks.cancelSent)), hooks);
  const g = {
    cancel: () => q.cancel(),
    values() {
      q.values();
      return g;
    },
    then<A, B>(ok?: (v: unknown) => A | PromiseLike<A>, fail?: (e: unknown) => B | PromiseLike<B>) {
      return start().then(ok, fail);
    },
  };
  return g;
}

/**
 * A transaction (or savepoint) whose own statements - BEGIN before `body` runs, COMMIT
 * or ROLLBACK after - are bounded by `ms`; statements inside `body` carry their own
 * deadline. BEGIN answering too late rolls the transaction back at once.
 */
function boundedTransaction<T>(
  ms: number,
  hooks: DeadlineHooks,
  open: (enter: (tx: SqlLike) => Promise<T>) => Promise<T>,
  body: (tx: SqlLike) => Promise<T>,
): Promise<T> {
  return reported(
    new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let settled = false;
      let bodyFailed = false;
      let bodyError: unknown;
      const finish = (f: () => void) => {
        clearTimeout(timer);
        if (!settled) (settled = true, f());
      };
      const arm = () => {
        timer = setTimeout(
          () => finish(() => reject(bodyFailed ? bodyError : new DatabaseDeadlineError(ms))),
          ms,
        );
      };
      arm();
      open(async (tx) => {
        clearTimeout(timer);
        if (settled) throw new DatabaseDeadlineError(ms); // BEGIN came back too late
        try {
          return await body(withDeadline(tx, ms, hooks));
        } catch (e) {
          bodyFailed = true;
          bodyError = e;
          throw e;
        } finally {
          if (!settled) arm(); // COMMIT or ROLLBACK
        }
      }).then((v) => finish(() => resolve(v)), (e) => finish(() => reject(e)));
    }),
    hooks,
  );
}

/**
 * Wraps a postgres.js Sql so every statement drizzle sends through it has a deadline.
 * `ms` of 0 (or less) returns `sql` unchanged.
 */
export function withDeadline<S extends SqlLike>(
  sql: S,
  ms: number,
  hooks: DeadlineHooks = NO_HOOKS,
): S {
  if (!(ms > 0)) return sql;
  const wrapped: SqlLike = {
    options: sql.options,
    unsafe: (query, params, options) => guarded(sql.unsafe(query, params, options), ms, hooks),
  };
  if (sql.begin) {
    const begin = sql.begin.bind(sql);
    wrapped.begin = (fn) => boundedTransaction(ms, hooks, (enter) => begin(enter), fn);
  }
  if (sql.savepoint) {
    const savepoint = sql.savepoint.bind(sql);
    wrapped.savepoint = (fn) => boundedTransaction(ms, hooks, (enter) => savepoint(enter), fn);
  }
  return wrapped as S;
}
