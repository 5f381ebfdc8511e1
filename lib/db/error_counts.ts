/**
 * This process's database errors for GET /metrics (`cachely_database_errors_total`), by
 * where they were seen: a request answered 503 because the database could not be reached
 * (API and pages), or a database error no request awaited (lib/db/outage_guard.ts). A
 * process-wide counter, as /metrics reports a process; tests read differences.
 */
export const databaseErrors = { requests: 0, background: 0 };

/**
 * Pools replaced because statements kept missing their deadline while a fresh connection
 * answered (lib/db/pool_watchdog.ts): `cachely_database_pool_rebuilds_total`.
 */
export const databasePool = { rebuilds: 0 };

/**
 * Cancel requests for statements past their deadline (lib/db/cancel.ts): sent, and not sent
 * because MAX_CANCELS_IN_FLIGHT were already open (`cachely_database_cancels_total`).
 */
export const databaseCancels = { sent: 0, skipped: 0 };
