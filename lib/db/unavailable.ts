/**
 * A database (or KV) that cannot be reached is a 503 with Retry-After, never an
 * unexplained 500 (docs/decisions.md "PostgreSQL, poolers and outages"): the request fails fast, the caller
 * retries, and the pool reconnects by itself once the server is back.
 */
import { ApiError, RETRY_AFTER_SECONDS } from "../errors.ts";
import { isTransientKvError } from "../kv/retry.ts";

export { RETRY_AFTER_SECONDS };

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
  "EPIPE", // written to a connection the server (or pooler) already closed
  "EBADF", // the same on Deno 2.5's node:net, when the socket was closed before the write ran
  "ECONNABORTED",
  "ENOTCONN",
  "EAI_AGAIN",
]);

// Deno's names for the same socket failures (its errors carry a name, not always a code).
const CONNECTION_NAMES = new Set([
  "ConnectionRefused",
  "ConnectionReset",
  "ConnectionAborted",
  "BrokenPipe",
  "NotConnected",
  "UnexpectedEof",
  "TimedOut",
]);

export function isUnavailable(e: unknown): boolean {
  for (let cur = e, depth = 0; cur && depth < 5; depth++) {
    const err = cur as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
    const code = typeof err.code === "string" ? err.code : "";
    if (CONNECTION_CODES.has(code) || /^(08|57|53)/.test(code)) return true;
    if (typeof err.name === "string" && CONNECTION_NAMES.has(err.name)) return true;
    if (
      typeof err.message === "string" &&
      /connection refused|connection reset|broken pipe|write CONNECT_TIMEOUT|server_login_retry|server conn crashed|no more connections allowed|query_wait_timeout|pgbouncer cannot connect/i
        .test(err.message)
    ) {
      return true;
    }
    cur = err.cause;
  }
  return false;
}

/** An error and its causes on one line, for the log: the reason an outage is 503. */
export function databaseErrorText(e: unknown): string {
  const parts: string[] = [];
  for (let cur = e, depth = 0; cur && depth < 4; depth++) {
    const err = cur as { message?: unknown; code?: unknown; cause?: unknown };
    const text = typeof err.message === "string" ? err.message.split("\n")[0] : String(cur);
    parts.push(typeof err.code === "string" ? `${text} (${err.code})` : text);
    cur = err.cause;
  }
  return parts.join(" <- ");
}

/** A 503 `unavailable` with Retry-After (and `headers`): every "try again shortly" answer. */
export function unavailable(message: string, headers: Record<string, string> = {}): ApiError {
  return new ApiError(503, "unavailable", message, undefined, {
    "retry-after": String(RETRY_AFTER_SECONDS),
    ...headers,
  });
}

/**
 * The 503 for an unreachable database, or for KV still busy after kvRetry's attempts (a KV
 * file locked by another process, KV Connect unreachable); null when `e` is some other error.
 */
export function unavailableError(e: unknown): ApiError | null {
  if (isUnavailable(e)) {
    return unavailable(
      "Service temporarily unavailable: the database cannot be reached, try again shortly",
    );
  }
  if (isTransientKvError(e)) {
    return unavailable("Service temporarily unavailable: storage is busy, try again shortly");
  }
  return null;
}
