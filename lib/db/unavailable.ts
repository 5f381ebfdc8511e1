/**
 * A database (or KV) that cannot be reached is a 503 with Retry-After, never an
 * unexplained 500 (issue 8 "Database outage"): the request fails fast, the caller
 * retries, and the pool reconnects by itself once the server is back.
 */
import { ApiError } from "../errors.ts";

/** Seconds a client is asked to wait before retrying. */
export const RETRY_AFTER_SECONDS = 5;

// postgres.js error codes for a connection that failed or went away, and the SQLSTATE
// classes of connection exceptions (08), operator intervention (57: also a cancelled or
// timed-out statement) and resources (53).
const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "DB_DEADLINE", // lib/db/deadline.ts: no answer within DB_REQUEST_TIMEOUT_MS
]);

function isUnavailable(e: unknown): boolean {
  for (let cur = e, depth = 0; cur && depth < 5; depth++) {
    const err = cur as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
    const code = typeof err.code === "string" ? err.code : "";
    if (CONNECTION_CODES.has(code) || /^(08|57|53)/.test(code)) return true;
    if (err.name === "ConnectionRefused" || err.name === "ConnectionReset") return true;
    if (
      typeof err.message === "string" &&
      /connection refused|write CONNECT_TIMEOUT/i.test(err.message)
    ) {
      return true;
    }
    cur = err.cause;
  }
  return false;
}

/** The 503 for an unreachable database, or null when `e` is some other error. */
export function unavailableError(e: unknown): ApiError | null {
  if (!isUnavailable(e)) return null;
  return new ApiError(
    503,
    "unavailable",
    "Service temporarily unavailable: the database cannot be reached, try again shortly",
    undefined,
    { "retry-after": String(RETRY_AFTER_SECONDS) },
  );
}
