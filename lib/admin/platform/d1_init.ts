/**
 * POST /api/admin/d1-init: the predecessor's "initialise the database" step. Here that is
 * the idempotent migration runner (lib/db/migrate.ts), which start-up also runs; a
 * database error propagates to the standard 500.
 */
import type { Services } from "../../services.ts";
import { applyMigrations } from "../../db/migrate.ts";
import { migrateUnderLock } from "../../db/migrate_lock.ts";
import type { DatabaseInit } from "./view_schema.ts";

export async function initDatabase(s: Services, actorUserId: string): Promise<DatabaseInit> {
  // On PostgreSQL under the same advisory lock as every instance's start (lib/db/migrate_lock.ts).
  const url = s.config.migrationDatabaseUrl ?? s.config.databaseUrl;
  const applied = url ? await migrateUnderLock(url) : await applyMigrations(s.dbHandle);
  const [{ n }] = await s.dbHandle.query<{ n: number | string }>(
    "SELECT count(*) AS n FROM schema_migrations",
  );
  s.log.info("database init run", { by: actorUserId, applied: applied.length });
  return { ok: true, database: s.dbHandle.kind, applied, total: Number(n) };
}
