import { assertEquals } from "../tests/assert.ts";
import { postgresAddress, postgresUrlProblem } from "./database_url.ts";
import { openDb } from "./db/client.ts";
import { migrateUnderLock } from "./db/migrate_lock.ts";
import { createPostgresDb } from "../tests/harness.ts";
import postgres from "postgres";
import { tcpFreezer } from "../tests/tcp_freezer.ts";

Deno.test("postgresAddress: an IPv6 literal goes in as host and port, other URLs as they are", () => {
  assertEquals(postgresAddress("postgres://u:p@[2001:db8::1]:6543/db"), {
    host: ["2001:db8::1"],
    port: [6543],
  });
  assertEquals(postgresAddress("postgres://u@[::1]/db"), { host: ["::1"], port: [5432] });
  assertEquals(postgresAddress("postgres://u:p@db.example.com:6543/db"), {});
  assertEquals(postgresAddress("postgres://u@h1:5432,h2:5433/db"), {});
});

Deno.test("postgresUrlProblem: what postgres.js can read passes, the rest is named", () => {
  for (
    const ok of [
      "postgres://u:p@db:5432/x",
      "postgresql://u@[2001:db8::1]:5432/x",
      "postgres://u@h1:5432,h2:5433/x",
      "postgres:///x", // host from PGHOST, else localhost
      "postgres://u:p%23q@db/x?sslmode=require",
    ]
  ) assertEquals(postgresUrlProblem(ok), null, ok);
  assertEquals(postgresUrlProblem("mysql://db/x"), "must be a postgres:// URL");
  for (const bad of ["postgres://u:p#q@db/x", "postgres://u@db:port/x", "postgres://u@[::1/x"]) {
    assertEquals(postgresUrlProblem(bad)?.startsWith("is not a valid URL"), true, bad);
  }
});

const testDb = Deno.env.get("TEST_DATABASE_URL");

Deno.test({
  name: "a DATABASE_URL with an IPv6 literal connects: the pool and the migration lock [postgres]",
  ignore: !testDb,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { url, name } = await createPostgresDb(false);
    // On [::1] to the server on 127.0.0.1; without postgresAddress the first connect threw
    // "Port should be >= 0 and < 65536. Received NaN" from a timer and ended the process.
    const relay = tcpFreezer(new URL(url), "::1");
    try {
      // The migration lock's own connection, then every migration of an empty database.
      const applied = await migrateUnderLock(relay.url, 5);
      assertEquals(applied.length > 10, true, `applied ${applied.length}`);
      const db = await openDb(
        { url: relay.url, maxConnections: 1, requestTimeoutMs: 5_000 },
        false,
      );
      try {
        const rows = await db.query<{ n: number }>("select count(*)::int as n from tenants");
        assertEquals(rows[0].n, 0);
      } finally {
        await db.close();
      }
    } finally {
      relay.close();
      const admin = postgres(testDb!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  },
});
