/**
 * Applies the plain SQL files in ./migrations in name order, once each, recording
 * them in schema_migrations. Safe to run at every start. Every file has its own numeric
 * prefix (tests/migrations_order_test.ts); renamed files are mapped in migration_renames.ts.
 */
import type { DbHandle } from "./client.ts";
import { RENAMED_MIGRATIONS, renameRecordedMigrationsSql } from "./migration_renames.ts";

const MIGRATIONS_DIR = new URL("./migrations/", import.meta.url);

/** The migrations' names in the order they apply (no file is read). */
export async function migrationNames(): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(MIGRATIONS_DIR)) {
    if (e.isFile && e.name.endsWith(".sql")) names.push(e.name);
  }
  return names.sort();
}

export async function listMigrations(): Promise<{ name: string; sql: string }[]> {
  const names = await migrationNames();
  return Promise.all(
    names.map(async (name) => ({
      name,
      sql: await Deno.readTextFile(new URL(name, MIGRATIONS_DIR)),
    })),
  );
}

export async function applyMigrations(
  db: Pick<DbHandle, "exec" | "execInTransaction" | "query">,
): Promise<string[]> {
  await db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
  );
  const recorded = async () =>
    new Set(
      (await db.query<{ name: string }>("SELECT name FROM schema_migrations")).map((r) => r.name),
    );
  let done = await recorded();
  // A database migrated before the renumbering: its rows take the current names first (under
  // the caller's lock, in one transaction), so no renamed migration is applied again.
  if ([...done].some((name) => RENAMED_MIGRATIONS.has(name))) {
    await db.execInTransaction(renameRecordedMigrationsSql());
    done = await recorded();
  }
  const applied: string[] = [];
  for (const m of await listMigrations()) {
    if (done.has(m.name)) continue;
    const quoted = m.name.replaceAll("'", "''");
    await db.execInTransaction(
      `${m.sql}\nINSERT INTO schema_migrations(name) VALUES ('${quoted}') ON CONFLICT DO NOTHING;`,
    );
    applied.push(m.name);
  }
  return applied;
}
