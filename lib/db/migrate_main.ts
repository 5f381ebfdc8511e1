/**
 * `deno task migrate`: the pre-deploy step. Applies pending migrations (under the
 * advisory lock on PostgreSQL) and exits 0, or prints why not and exits 1.
 */
import { ConfigError, loadConfig } from "../config.ts";
import { runMigrations } from "./migrate_lock.ts";

if (import.meta.main) {
  try {
    const applied = await runMigrations(loadConfig(Deno.env.toObject()));
    console.log(applied.length ? `applied: ${applied.join(", ")}` : "up to date");
  } catch (e) {
    console.error(e instanceof ConfigError ? e.message : `Migration failed: ${String(e)}`);
    Deno.exit(1);
  }
}
