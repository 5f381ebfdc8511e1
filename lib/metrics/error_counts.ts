/**
 * This process's database errors for GET /metrics (`cachely_database_errors_total`), by
 * where they were seen: a request answered 503 because the database could not be reached
 * (API and pages), or a database error no request awaited (lib/db/outage_guard.ts). A
 * process-wide counter, as /metrics reports a process; tests read differences.
 */
export const databaseErrors = { requests: 0, background: 0 };
