/**
 * The last resort against a stuck pool: statements that keep missing their deadline, a fresh
 * connection to the same database that answers, and the pool's own `SELECT 1` that still
 * does not, mean the pool itself no longer works (a driver bug, a connection lost to the pool for good), not the database. Then the
 * pool is ended and a new one takes its place, logged and counted in /metrics
 * (`cachely_database_pool_rebuilds_total`). Callers hold the facade `sql`, which always
 * sends through the current pool.
 */
import type { Sql } from "postgres";
import type { Logger } from "../log.ts";
import { type BackendKey, cancelLimiter, cancelTarget, sendCancel } from "./cancel.ts";
import { giveUp, raceDeadline, type SqlLike } from "./deadline.ts";
import { databasePool } from "./error_counts.ts";
import { postgresAddress } from "../database_url.ts";

/** Deadline errors in a row before a probe connection is tried. */
export const STUCK_AFTER_DEADLINES = 5;
/** How long the probe connection has to log in and answer `SELECT 1`. */
const PROBE_MS = 2_000;

export type RenewablePool = {
  /** Sends through whichever pool is current. */
  sql: SqlLike;
  /** Outcome hooks for lib/db/deadline.ts: a missed deadline, or any answer. */
  onDeadline(): void;
  onAnswer(): void;
  /** Cancels a sent statement past its deadline (lib/db/cancel.ts: held open, capped). */
  cancelSent(q: { cancel(): unknown }): void;
  /** Replaces the pool at once when its last statement missed the deadline (shutdown). */
  renewIfSuspect(): Promise<void>;
  end(timeoutSeconds: number): Promise<void>;
};

/**
 * Seconds the replaced pool's statements get to finish. Those already answering (a pool that
 * came back while the probe ran) complete; each one also carries its own deadline, so the
 * stuck ones fail by then anyway. Ending with no grace failed requests that were being served.
 */
const RETIRE_GRACE_SECONDS = 5;

export function renewablePool(
  url: string,
  makePool: () => Sql,
  log: Logger,
  probe: () => Promise<boolean> = () => answersFresh(url),
): RenewablePool {
  let current = makePool();
  let streak = 0;
  let checking = false;
  const cancels = cancelLimiter();
  const cancelSent = (q: { cancel(): unknown }) => {
    const d = q as { state?: unknown; active?: unknown };
    // A statement queued behind another on its connection: a cancel would hit the one
    // running, which carries its own deadline and its own cancel.
    if (!d.active) return;
    const target = cancelTarget(current.options);
    cancels.send(() =>
      target ? sendCancel(target, d.state as BackendKey) : Promise.resolve(q.cancel())
    );
  };
  const renew = (reason: string, graceSeconds: number) => {
    const old = current;
    current = makePool();
    // drizzle installed its parsers and serializers on the first pool's options.
    Object.assign(current.options.parsers, old.options.parsers);
    Object.assign(current.options.serializers, old.options.serializers);
    streak = 0;
    databasePool.rebuilds++;
    log.warn("database pool replaced", { reason });
    old.end({ timeout: graceSeconds }).catch(() => {});
  };
  const check = async () => {
    checking = true;
    try {
      // A fresh connection answering is not enough: when the database comes back, the probe
      // often answers before the pool's own reconnects do. The pool is stuck only when it
      // still cannot answer once the database can.
      if (await probe() && !(await poolAnswers(current, cancelSent))) {
        renew(
          `${STUCK_AFTER_DEADLINES} statements in a row missed the deadline; ` +
            "a fresh connection answered and the pool did not",
          RETIRE_GRACE_SECONDS,
        );
      } else streak = 0; // the database itself is away (an outage, not a stuck pool), or back
    } finally {
      checking = false;
    }
  };
  const facade = {
    get options() {
      return current.options;
    },
    unsafe: (q: string, p?: unknown[], o?: unknown) =>
      (current as unknown as SqlLike).unsafe(q, p, o),
    begin: (fn: (tx: SqlLike) => Promise<unknown>) =>
      (current as unknown as Required<SqlLike>).begin(fn),
  };
  return {
    sql: facade,
    onDeadline() {
      if (++streak >= STUCK_AFTER_DEADLINES && !checking) void check();
    },
    onAnswer() {
      streak = 0;
    },
    cancelSent,
    renewIfSuspect() {
      if (streak > 0) {
        // At shutdown nothing is worth waiting for: its waiting statements fail at once.
        renew("shutting down after a missed deadline: flushing on a fresh pool", 0);
      }
      return Promise.resolve();
    },
    end: (timeout) => current.end({ timeout }),
  };
}

/** True when `pool` answers `SELECT 1` within PROBE_MS. */
async function poolAnswers(
  pool: Sql,
  cancelSent: (q: { cancel(): unknown }) => void,
): Promise<boolean> {
  const q = (pool as unknown as SqlLike).unsafe("SELECT 1");
  try {
    await raceDeadline(q, PROBE_MS, () => giveUp(q, cancelSent));
    return true;
  } catch {
    return false;
  }
}

/** True when a new connection to `url` logs in and answers `SELECT 1` within PROBE_MS. */
async function answersFresh(url: string): Promise<boolean> {
  const { default: postgres } = await import("postgres");
  const probe = postgres(url, {
    ...postgresAddress(url),
    max: 1,
    prepare: false,
    connect_timeout: Math.ceil(PROBE_MS / 1000),
    onnotice: () => {},
  });
  try {
    await raceDeadline(probe.unsafe("SELECT 1"), PROBE_MS);
    return true;
  } catch {
    return false;
  } finally {
    probe.end({ timeout: 0 }).catch(() => {});
  }
}
