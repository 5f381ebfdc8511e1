/**
 * The patched postgres.js (vendor/postgres). A connection that closes under an open
 * transaction. postgres.js then sends the transaction's ROLLBACK on the dead connection; in
 * 3.4.9 that write threw from a timer ("Cannot read properties of null (reading 'write')",
 * porsager/postgres#1154) and ended the process: every tenant's service, from one cut
 * connection. And a statement that fails after sending rows (a deadline's cancel, a bad
 * value in row 3): 3.4.9 kept its row count, so the next result on that connection came back
 * with holes before its rows (porsager/postgres#1119): `rows[0]` undefined, a signed-in user
 * answered 401, an existing tenant 404. Both found by cutting Cachely's database connections
 * at random byte offsets (tests/db_cut_connections_test.ts).
 */
import postgres from "postgres";
import { assertEquals } from "../../tests/assert.ts";
import { tcpFreezer } from "../../tests/tcp_freezer.ts";
import { isUnavailable } from "./unavailable.ts";

const testDb = Deno.env.get("TEST_DATABASE_URL");

Deno.test({
  name:
    "a transaction whose connection is cut rejects, the process lives, the pool answers again [postgres]",
  ignore: !testDb,
  sanitizeResources: false, // the relay's sockets close as their peers do
  sanitizeOps: false,
  async fn() {
    const relay = tcpFreezer(new URL(testDb!));
    const sql = postgres(relay.url, { max: 1, prepare: false, onnotice: () => {} });
    try {
      let failure: unknown;
      await sql.begin(async (tx) => {
        await tx`select 1`;
        relay.cut();
        await new Promise((r) => setTimeout(r, 50));
        await tx`select 2`;
      }).catch((e) => failure = e);
      assertEquals((failure as { code?: string })?.code, "CONNECTION_CLOSED");
      assertEquals(isUnavailable(failure), true, "a 503 for the request that ran it");
      // The ROLLBACK's write ran on the closed connection here, from a timer.
      await new Promise((r) => setTimeout(r, 100));
      // Nothing it buffered goes ahead of the reconnected connection's start-up message.
      const [row] = await sql`select 3 as n`;
      assertEquals(row.n, 3);
    } finally {
      await sql.end({ timeout: 1 });
      relay.close();
    }
  },
});

Deno.test({
  name:
    "a statement that fails mid-rows leaves the next results whole, alone or pipelined [postgres]",
  ignore: !testDb,
  async fn() {
    const sql = postgres(testDb!, { max: 1, prepare: false, onnotice: () => {} });
    try {
      const failed = await sql`select 1/(3 - g) as x from generate_series(1, 5) g`
        .then(() => "no error", (e: Error) => e.message);
      assertEquals(failed, "division by zero");
      assertEquals([...await sql`select 42 as n`], [{ n: 42 }]);
      // Pipelined: the second statement is sent before the first fails on its fourth row.
      const first = sql`select i, 1/(4 - i) as boom from generate_series(1, 10) i`
        .then(() => "no error", (e: Error) => e.message);
      const second = sql`select x from generate_series(1, 3) x`;
      assertEquals(await first, "division by zero");
      assertEquals([...await second], [{ x: 1 }, { x: 2 }, { x: 3 }]);
    } finally {
      await sql.end();
    }
  },
});
