/**
 * Migrations as a step of their own. On PostgreSQL they run under an
 * advisory lock held by one session connection, so any number of instances (and the
 * `deno task migrate` pre-deploy step) starting at once apply them exactly once and
 * never race on `CREATE TABLE`. A transaction pooler (Supabase :6543, pgbouncer in
 * transaction mode) does not keep a session, so MIGRATION_DATABASE_URL names a direct
 * or session-pooler URL; without it DATABASE_URL is used.
 */
import postgres from "postgres";
import type { Config } from "../config.ts";
import type { DbHandle } from "./client.ts";
import { applyMigrations, migrationNames } from "./migrate.ts";
import { currentMigrationName } from "./migration_renames.ts";
import { orAfter } from "../timeout.ts";
import { postgresAddress } from "../database_url.ts";

/** Arbitrary 63-bit key shared by every Cachely instance ("cachely" in ASCII). */
const LOCK_KEY = "27988617413977465";

/** The command an operator runs; named in every "not current" message. */
export const MIGRATE_COMMAND = "deno task migrate";

export class SchemaNotCurrentError extends Error {
  override name = "SchemaNotCurrentError";
  constructor(readonly pending: string[]) {
    super(
      `Database schema is not current: ${pending.length} pending migration(s) (${
        pending.join(", ")
      }). Run \`${MIGRATE_COMMAND}\` (MIGRATION_DATABASE_URL or DATABASE_URL set) before ` +
        "starting instances, or start with MIGRATE_ON_START=true",
    );
  }
}

/** Seconds to get the migration connection (postgres.js's connect_timeout, and the whole wait). */
const CONNECT_SECONDS = 10;

const unreachable = (seconds: number) =>
  Object.assign(new Error(`no database connection within ${seconds} s`), {
    code: "CONNECT_TIMEOUT",
  });

/**
 * The reserved connection, or a CONNECT_TIMEOUT error (a 503 "database unavailable", retried at
 * start) after `seconds`: postgres.js keeps reconnecting, without end, to a server that
 * accepts and drops connections, and its connect_timeout covers only the TCP connect.
 */
async function reserveWithin(sql: postgres.Sql, seconds: number): Promise<postgres.ReservedSql> {
  const reserved = sql.reserve();
  try {
    return await orAfter(reserved, seconds * 1000, () => {
      throw unreachable(seconds);
    });
  } catch (e) {
    reserved.then((c) => c.release(), () => {}); // one that arrives late goes back with the pool
    throw e;
  }
}

/**
 * Applies pending migrations on `url` under the advisory lock; returns the names applied.
 * `connectSeconds`: the bound on getting its connection (tests shorten it).
 */
export async function migrateUnderLock(
  url: string,
  connectSeconds = CONNECT_SECONDS,
): Promise<string[]> {
  const sql = postgres(url, {
    ...postgresAddress(url),
    max: 1,
    prepare: false,
    idle_timeout: 0,
    connect_timeout: connectSeconds,
    onnotice: () => {},
  });
  let connected = false;
  try {
    const conn = await reserveWithin(sql, connectSeconds);
    connected = true;
    try {
      // Waits while another instance migrates; it then finds nothing left to do. The wait and
      // the migrations lift a role's statement_timeout (docs/operations.md sets one) for their
      // own transaction only; the session lock outlives that transaction.
      await conn.unsafe(
        `BEGIN; SET LOCAL statement_timeout = 0; SELECT pg_advisory_lock(${LOCK_KEY}); COMMIT`,
      );
      try {
        return await applyMigrations({
          exec: async (text) => {
            await conn.unsafe(text);
          },
          execInTransaction: async (text) => {
            await conn.unsafe("BEGIN; SET LOCAL statement_timeout = 0");
            try {
              await conn.unsafe(text);
              await conn.unsafe("COMMIT");
            } catch (e) {
              await conn.unsafe("ROLLBACK").catch(() => {});
              throw e;
            }
          },
          query: async <T>(text: string) => (await conn.unsafe(text)) as unknown as T[],
        });
      } finally {
        await conn.unsafe(`SELECT pg_advisory_unlock(${LOCK_KEY})`).catch(() => {});
      }
    } finally {
      conn.release();
    }
  } finally {
    // Never connected: nothing to wait for (its reconnect loop is cut at once).
    await sql.end({ timeout: connected ? 5 : 0 }).catch(() => {});
  }
}

/**
 * Migrations not yet applied to the database behind `db` (all of them on an empty one): one
 * query, read while the directory is listed (a round trip less at every start).
 */
export async function pendingMigrations(db: Pick<DbHandle, "query">): Promise<string[]> {
  const applied = db.query<{ name: string }>("SELECT name FROM schema_migrations").then(
    // Rows recorded before the renumbering count under their current names.
    (rows) => new Set(rows.map((r) => currentMigrationName(r.name))),
    (e) => {
      // undefined_table: a database never migrated
      if ((e as { code?: string })?.code === "42P01") return new Set<string>();
      throw e;
    },
  );
  const [names, done] = await Promise.all([migrationNames(), applied]);
  return names.filter((n) => !done.has(n));
}

/**
 * What an instance does with the schema at start: the embedded database is migrated
 * (one process owns it); PostgreSQL is migrated under the lock unless MIGRATE_ON_START
 * is false, in which case a schema that is not current stops the start with a message
 * naming the command.
 */
export async function prepareSchema(config: Config, db: DbHandle): Promise<string[]> {
  if (!config.databaseUrl) return await applyMigrations(db);
  if (config.migrateOnStart) {
    return await migrateUnderLock(config.migrationDatabaseUrl ?? config.databaseUrl);
  }
  const pending = await pendingMigrations(db);
  if (pending.length > 0) throw new SchemaNotCurrentError(pending);
  return [];
}

/**
 * `deno task migrate` and `cli.ts migrate`: applies migrations to
 * MIGRATION_DATABASE_URL, else DATABASE_URL (under the lock), else the embedded
 * database under DATA_DIR. Returns the names applied.
 */
export async function runMigrations(config: Config): Promise<string[]> {
  const url = config.migrationDatabaseUrl ?? config.databaseUrl;
  if (url) return await migrateUnderLock(url);
  const { openDb } = await import("./client.ts");
  const db = await openDb({ dataDir: `${config.dataDir}/pg` }, false);
  try {
    return await applyMigrations(db);
  } finally {
    await db.close();
  }
}
