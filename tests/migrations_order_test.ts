/**
 * Migrations apply in one order everywhere: every file has its own numeric prefix, and a
 * database migrated before the files were renumbered (it recorded the old names) is upgraded
 * without applying anything twice, on both backends.
 */
import postgres from "postgres";
import { assert, assertEquals } from "./assert.ts";
import { type Backend, BACKENDS } from "./harness.ts";
import { type DbHandle, openDb } from "../lib/db/client.ts";
import { applyMigrations, listMigrations, migrationNames } from "../lib/db/migrate.ts";
import { migrateUnderLock, pendingMigrations } from "../lib/db/migrate_lock.ts";
import { RENAMED_MIGRATIONS } from "../lib/db/migration_renames.ts";

Deno.test("migration files have distinct four-digit prefixes", async () => {
  const names = await migrationNames();
  const byPrefix = new Map<string, string[]>();
  for (const name of names) {
    assert(/^\d{4}_[a-z0-9_]+\.sql$/.test(name), `badly named migration: ${name}`);
    const prefix = name.slice(0, 4);
    byPrefix.set(prefix, [...byPrefix.get(prefix) ?? [], name]);
  }
  const shared = [...byPrefix.values()].filter((group) => group.length > 1);
  assertEquals(shared, [], "migrations sharing a prefix apply in alphabet order");
});

Deno.test("every renamed migration maps an old name to a file that exists", async () => {
  const names = new Set(await migrationNames());
  for (const [from, to] of RENAMED_MIGRATIONS) {
    assert(names.has(to), `${from} is renamed to ${to}, which is not a migration file`);
    assert(!names.has(from), `${from} is renamed but still a migration file`);
  }
  const targets = [...RENAMED_MIGRATIONS.values()];
  assertEquals(new Set(targets).size, targets.length, "two old names map to one file");
});

const OLD_NAME = new Map([...RENAMED_MIGRATIONS].map(([from, to]) => [to, from]));

/**
 * What the runner did before the renumbering: the first `count` migrations (all by default),
 * in the same order, each recorded under the name its file had then.
 */
async function migrateUnderOldNames(db: DbHandle, count = Infinity): Promise<string[]> {
  await db.exec(
    "CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
  );
  const recorded: string[] = [];
  for (const m of (await listMigrations()).slice(0, count)) {
    const old = OLD_NAME.get(m.name) ?? m.name;
    await db.execInTransaction(`${m.sql}\nINSERT INTO schema_migrations(name) VALUES ('${old}');`);
    recorded.push(old);
  }
  return recorded;
}

const BASE = Deno.env.get("TEST_DATABASE_URL");

/** An empty database of `backend`; `migrate` runs the current migrator the way a start does. */
async function emptyDatabase(backend: Backend): Promise<{
  db: DbHandle;
  migrate(): Promise<string[]>;
  drop(): Promise<void>;
}> {
  if (backend === "pglite") {
    const db = await openDb({ intervalTimer: false }, false);
    return { db, migrate: () => applyMigrations(db), drop: () => db.close() };
  }
  const name = `cachely_shape_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(BASE!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(BASE!);
  url.pathname = `/${name}`;
  const db = await openDb({ url: url.toString() }, false);
  return {
    db,
    // PostgreSQL instances migrate under the advisory lock, on a connection of their own.
    migrate: () => migrateUnderLock(url.toString()),
    async drop() {
      await db.close();
      const a = postgres(BASE!, { max: 1, onnotice: () => {} });
      await a.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

async function recordedNames(db: DbHandle): Promise<string[]> {
  const rows = await db.query<{ name: string }>("SELECT name FROM schema_migrations ORDER BY name");
  return rows.map((r) => r.name);
}

for (const backend of BACKENDS) {
  Deno.test(`a database migrated under the old names is upgraded, nothing applied twice [${backend}]`, async () => {
    const { db, migrate, drop } = await emptyDatabase(backend);
    try {
      const old = await migrateUnderOldNames(db);
      assert(old.some((n) => RENAMED_MIGRATIONS.has(n)), "the fixture records old names");
      assertEquals(await pendingMigrations(db), [], "a current schema is not reported stale");
      assertEquals(await migrate(), []);
      assertEquals(await recordedNames(db), await migrationNames());
      assertEquals(await migrate(), [], "a second start finds nothing either");
    } finally {
      await drop();
    }
  });

  Deno.test(`a database part-way through the old names gets exactly the rest [${backend}]`, async () => {
    const { db, migrate, drop } = await emptyDatabase(backend);
    try {
      const all = await migrationNames();
      const count = all.indexOf("0012_ai_guardrail_baseline.sql"); // the old 0007_ and 0009_ ones
      assert(count > 0);
      await migrateUnderOldNames(db, count);
      const rest = all.slice(count);
      assertEquals(await pendingMigrations(db), rest);
      assertEquals(await migrate(), rest);
      assertEquals(await recordedNames(db), all);
    } finally {
      await drop();
    }
  });
}
