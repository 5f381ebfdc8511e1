/**
 * Migrations that once shared a numeric prefix (three 0007_, nine 0010_) were renumbered so
 * every file has its own prefix, in the order a fresh database applied them (name order). A
 * database migrated before that recorded the old names in schema_migrations; the runner renames
 * those rows before it computes what is pending, so nothing is applied twice.
 */

/** Old recorded name -> current file name. Append only: released names never change again. */
export const RENAMED_MIGRATIONS: ReadonlyMap<string, string> = new Map([
  ["0007_master_admin_grants.sql", "0008_master_admin_grants.sql"],
  ["0007_quotas.sql", "0009_quotas.sql"],
  ["0008_usage_blocked.sql", "0010_usage_blocked.sql"],
  ["0009_email_verified.sql", "0011_email_verified.sql"],
  ["0010_ai_guardrail_baseline.sql", "0012_ai_guardrail_baseline.sql"],
  ["0010_ai_guardrails.sql", "0013_ai_guardrails.sql"],
  ["0010_ai_outputs.sql", "0014_ai_outputs.sql"],
  ["0010_analytics_counters.sql", "0015_analytics_counters.sql"],
  ["0010_analytics_purges.sql", "0016_analytics_purges.sql"],
  ["0010_fault_usage_flushes.sql", "0017_fault_usage_flushes.sql"],
  ["0010_migrate_allowed_types.sql", "0018_migrate_allowed_types.sql"],
  ["0010_sec_token_scopes.sql", "0019_sec_token_scopes.sql"],
  ["0010_snap_generation_seq.sql", "0020_snap_generation_seq.sql"],
  ["0011_analytics_latency.sql", "0021_analytics_latency.sql"],
  ["0012_experiment_visitors.sql", "0022_experiment_visitors.sql"],
]);

/** The current name of a migration recorded under `name` (itself when never renamed). */
export function currentMigrationName(name: string): string {
  return RENAMED_MIGRATIONS.get(name) ?? name;
}

/**
 * One script, run in the migrator's transaction: each recorded old name becomes its current
 * name (an old row whose new name is already recorded is dropped, so a name counts once).
 */
export function renameRecordedMigrationsSql(): string {
  const values = [...RENAMED_MIGRATIONS].map(([from, to]) => `('${from}', '${to}')`).join(", ");
  return `UPDATE schema_migrations m SET name = r.new_name FROM (VALUES ${values}) AS r(old_name, new_name)
  WHERE m.name = r.old_name
    AND NOT EXISTS (SELECT 1 FROM schema_migrations d WHERE d.name = r.new_name);
DELETE FROM schema_migrations m USING (VALUES ${values}) AS r(old_name, new_name)
  WHERE m.name = r.old_name;`;
}
