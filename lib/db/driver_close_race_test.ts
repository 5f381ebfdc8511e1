/**
 * The patched postgres.js (vendor/postgres): a connection that closes under an open
 * transaction. postgres.js then sends the transaction's ROLLBACK on the dead connection; in
 * 3.4.9 that write threw from a timer ("Cannot read properties of null (reading 'write')",
 * porsager/postgres#1154) and ended the process: every tenant's service, from one cut
 * connection. Found by cutting Cachely's database connections at random byte offsets.
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
