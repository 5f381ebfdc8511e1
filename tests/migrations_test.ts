/**
 * Migrations are a step of their own: instances starting together on an
 * empty PostgreSQL database migrate it once under the advisory lock; with
 * MIGRATE_ON_START=false a stale schema stops the start naming the command; and the
 * SQL migrations and the Drizzle tables agree column by column on both backends.
 */
import postgres from "postgres";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { is } from "drizzle-orm";
import { assert, assertEquals, assertRejects } from "./assert.ts";
import { BACKENDS, openTestDb, testConfig } from "./harness.ts";
import * as schema from "../lib/db/schema/mod.ts";
import { listMigrations } from "../lib/db/migrate.ts";
import {
  MIGRATE_COMMAND,
  migrateUnderLock,
  pendingMigrations,
  SchemaNotCurrentError,
} from "../lib/db/migrate_lock.ts";
import { bootstrap } from "../lib/bootstrap.ts";
import { openDb } from "../lib/db/client.ts";
import { silentLogger } from "../lib/log.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
const skip = !BASE;
if (skip) console.log("migrations_test: PostgreSQL cases skipped: TEST_DATABASE_URL is not set");

/** An empty PostgreSQL database of its own; dropped by the returned function. */
async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cachely_m_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(BASE!, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(BASE!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = postgres(BASE!, { max: 1, onnotice: () => {} });
      await a.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

Deno.test({
  name: "migrateUnderLock(): four instances at once on an empty database all succeed, once each",
  ignore: skip,
  async fn() {
    const db = await emptyDatabase();
    try {
      const runs = await Promise.all([1, 2, 3, 4].map(() => migrateUnderLock(db.url)));
      const all = (await listMigrations()).map((m) => m.name);
      assertEquals(runs.flat().sort(), all, "every migration applied exactly once");
      assertEquals(runs.filter((r) => r.length > 0).length, 1);
    } finally {
      await db.drop();
    }
  },
});

Deno.test({
  name: "MIGRATE_ON_START=false: a stale schema stops the start naming the command",
  ignore: skip,
  async fn() {
    const db = await emptyDatabase();
    try {
      const env = { DATABASE_URL: db.url, MIGRATE_ON_START: "false", KV_PATH: ":memory:" };
      const err = await assertRejects(() => bootstrap(testConfig(env), { log: silentLogger }));
      assert(err instanceof SchemaNotCurrentError, String(err));
      assert(err.message.includes(MIGRATE_COMMAND), err.message);
      await migrateUnderLock(db.url);
      const app = await bootstrap(testConfig(env), { log: silentLogger });
      await app.close();
    } finally {
      await db.drop();
    }
  },
});

const SERIAL: Record<string, string> = {
  serial: "integer",
  bigserial: "bigint",
  smallserial: "smallint",
};

type Col = { type: string; notNull: boolean };

function drizzleCatalog(): Map<string, Map<string, Col>> {
  const out = new Map<string, Map<string, Col>>();
  for (const value of Object.values(schema)) {
    if (!is(value, PgTable)) continue;
    const cfg = getTableConfig(value);
    const pk = new Set(cfg.primaryKeys.flatMap((p) => p.columns.map((c) => c.name)));
    const cols = new Map<string, Col>();
    for (const c of cfg.columns) {
      const t = c.getSQLType();
      cols.set(c.name, { type: SERIAL[t] ?? t, notNull: c.notNull || pk.has(c.name) });
    }
    out.set(cfg.name, cols);
  }
  return out;
}

for (const backend of BACKENDS) {
  Deno.test(`the migrated catalog matches the Drizzle schema column by column [${backend}]`, async () => {
    const h = await openTestDb(backend);
    try {
      const rows = await h.query<{ t: string; c: string; type: string; notnull: boolean }>(`
        SELECT cl.relname AS t, a.attname AS c, format_type(a.atttypid, a.atttypmod) AS type,
               a.attnotnull AS notnull
        FROM pg_attribute a JOIN pg_class cl ON cl.oid = a.attrelid
        JOIN pg_namespace n ON n.oid = cl.relnamespace
        WHERE n.nspname = 'public' AND cl.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
          AND cl.relname <> 'schema_migrations'`);
      const db = new Map<string, Map<string, Col>>();
      for (const r of rows) {
        if (!db.has(r.t)) db.set(r.t, new Map());
        db.get(r.t)!.set(r.c, { type: r.type, notNull: r.notnull });
      }
      const problems: string[] = [];
      const code = drizzleCatalog();
      for (const [t, cols] of code) {
        const got = db.get(t);
        if (!got) {
          problems.push(`${t}: in Drizzle, not in the migrations`);
          continue;
        }
        for (const [c, want] of cols) {
          const have = got.get(c);
          if (!have) problems.push(`${t}.${c}: in Drizzle, not in the migrations`);
          else if (have.type !== want.type || have.notNull !== want.notNull) {
            problems.push(
              `${t}.${c}: migrations ${have.type}${have.notNull ? " not null" : ""}, ` +
                `Drizzle ${want.type}${want.notNull ? " not null" : ""}`,
            );
          }
        }
        for (const c of got.keys()) {
          if (!cols.has(c)) problems.push(`${t}.${c}: in the migrations, not in Drizzle`);
        }
      }
      for (const t of db.keys()) {
        if (!code.has(t)) problems.push(`${t}: in the migrations, not in Drizzle`);
      }
      assertEquals(problems, []);
      assertEquals(await pendingMigrations(h), []);
    } finally {
      await h.close();
    }
  });
}

Deno.test("the second cache tier's name carries the database's installation id", async () => {
  const dir = await Deno.makeTempDir();
  const names: (string | null)[] = [];
  try {
    for (const _ of [1, 2]) {
      const app = await bootstrap(testConfig({ KV_PATH: `${dir}/kv.sqlite3` }), {
        dbHandle: await openDb({}), // a fresh embedded database, migrated from scratch
        log: silentLogger,
      });
      const [{ id }] = await app.services.dbHandle.query<{ id: string }>(
        "SELECT id FROM installation",
      );
      const name = (app.edge as unknown as { cache: { secondTierName: string | null } }).cache
        .secondTierName;
      assertEquals(name, `cachely-edge-${id}`);
      names.push(name);
      await app.close();
    }
    assert(names[0] !== names[1], "a fresh database never shares the cache of another");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
