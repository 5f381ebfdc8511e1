/**
 * A database outage never ends the process: requests answer 503 (unavailable.ts),
 * and these two cover what no request awaits.
 *
 * - Errors nothing awaited. postgres.js drops the promise of a statement's cancel request
 *   (lib/db/deadline.ts cancels statements that miss their deadline): when the pooler
 *   refuses that connection (`server_login_retry`) the rejection is unhandled, and Deno ends
 *   the process on an unhandled rejection. A database error reaching the global handlers is
 *   logged and the process keeps serving; any other error keeps Deno's default (exit).
 * - Start-up. A database that cannot be reached while the program starts (a restart, a
 *   pooler's login-retry window) is waited for, with the reason logged, instead of exiting.
 */
import type { Logger } from "../log.ts";
import { databaseErrorText as describe, isUnavailable } from "./unavailable.ts";
import { databaseErrors } from "./error_counts.ts";

/** An error from the database driver or about reaching the database. */
export function isDatabaseError(e: unknown): boolean {
  return isUnavailable(e) || (e as { name?: unknown } | null)?.name === "PostgresError";
}

/** Installs the global handlers: database errors are logged, never fatal. */
export function keepRunningOnDatabaseErrors(log: Logger): void {
  const spare = (event: Event, error: unknown) => {
    if (!isDatabaseError(error)) return;
    event.preventDefault();
    databaseErrors.background++;
    log.warn("database error outside any request; still running", { error: describe(error) });
  };
  globalThis.addEventListener("unhandledrejection", (e) => spare(e, e.reason));
  globalThis.addEventListener("error", (e) => spare(e, e.error));
}

/** Retries before the wait between attempts stops growing (1 s, 2 s, 4 s, then 8 s). */
const START_BACKOFF_MS = [1_000, 2_000, 4_000, 8_000];

/**
 * `start()`, retried while it fails because the database cannot be reached; any other
 * failure is thrown. `sleep` is injectable for tests.
 */
export async function startWhenDatabaseAnswers<T>(
  start: () => Promise<T>,
  log: Logger,
  sleep = (ms: number) => new Promise((r) => setTimeout(r, ms)),
): Promise<T> {
  for (let attempt = 0;; attempt++) {
    try {
      return await start();
    } catch (e) {
      if (!isUnavailable(e)) throw e;
      const waitMs = START_BACKOFF_MS[Math.min(attempt, START_BACKOFF_MS.length - 1)];
      log.warn("database unreachable at start; waiting to retry", {
        attempt: attempt + 1,
        retryInMs: waitMs,
        error: describe(e),
      });
      await sleep(waitMs);
    }
  }
}
