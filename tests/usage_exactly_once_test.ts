/**
 * Usage is counted exactly once. The app's driver reaches PostgreSQL
 * through a TCP proxy that cuts the connection around a flush's COMMIT: right after
 * forwarding it (the server commits, the answer is lost) or just before (the server
 * rolls back). Either way the flush fails, the aggregator keeps the deltas and retries,
 * and the totals must equal what was recorded. Skips (saying why) without
 * TEST_DATABASE_URL.
 */
import postgres from "postgres";
import { assert, assertEquals } from "./assert.ts";
import { openDb } from "../lib/db/client.ts";
import { migrateUnderLock } from "../lib/db/migrate_lock.ts";
import { UsageAggregator } from "../lib/usage/aggregator.ts";
import { postgresFlushTarget } from "../lib/usage/pg_target.ts";
import { silentLogger } from "../lib/log.ts";
import type { UsageRecord } from "../edge/types.ts";

const BASE = Deno.env.get("TEST_DATABASE_URL");
if (!BASE) console.log("usage_exactly_once_test: skipped: TEST_DATABASE_URL is not set");

type Cut = "none" | "after-commit" | "before-commit";

/** A TCP proxy to host:port that cuts a connection at the first COMMIT it carries. */
function commitCutter(host: string, port: number) {
  let cut: Cut = "none";
  let cuts = 0;
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const close = (...xs: Deno.Conn[]) => {
    for (const x of xs) {
      conns.delete(x);
      try {
        x.close();
      } catch { /* closed */ }
    }
  };
  const pipe = async (from: Deno.Conn, to: Deno.Conn, watch: boolean) => {
    const w = to.writable.getWriter();
    try {
      for await (const chunk of from.readable) {
        // postgres.js sends COMMIT as a simple query of its own ('Q' … "commit").
        const commit = watch && cut !== "none" &&
          /\bcommit\b/i.test(new TextDecoder().decode(chunk));
        if (commit && cut === "before-commit") break;
        await w.write(chunk);
        if (commit) break;
      }
    } catch { /* cut */ }
    if (watch && cut !== "none") cuts++;
    close(from, to);
  };
  (async () => {
    for await (const c of listener) {
      conns.add(c);
      const up = await Deno.connect({ hostname: host, port }).catch(() => null);
      if (!up) {
        close(c);
        continue;
      }
      conns.add(up);
      pipe(c, up, true);
      pipe(up, c, false);
    }
  })().catch(() => {});
  return {
    port: (listener.addr as Deno.NetAddr).port,
    arm(c: Cut) {
      cut = c;
      cuts = 0;
    },
    get cuts() {
      return cuts;
    },
    close() {
      listener.close();
      close(...conns);
    },
  };
}

const visit = (tenantId: number, i: number): UsageRecord => ({
  tenantId,
  ts: Date.UTC(2026, 10, 26, 12, 0, i),
  method: "GET",
  path: `/p${i}`,
  status: 200,
  bytes: 100,
  cache: "MISS",
  durationMs: 1,
  kind: "api",
});

for (const cut of ["after-commit", "before-commit"] as const) {
  Deno.test({
    name: `a usage flush cut ${cut.replace("-", " ")} is counted exactly once after retry`,
    ignore: !BASE,
    sanitizeOps: false, // the COMMIT-cutting proxy's sockets and postgres.js's reconnects settle after the test
    sanitizeResources: false,
    async fn() {
      const name = `cachely_once_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
      const admin = postgres(BASE!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`CREATE DATABASE ${name}`);
      const direct = new URL(BASE!);
      direct.pathname = `/${name}`;
      await migrateUnderLock(direct.toString());
      const sql = postgres(direct.toString(), { max: 1, onnotice: () => {} });
      const proxy = commitCutter(direct.hostname, Number(direct.port || 5432));
      const viaProxy = new URL(direct);
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      const handle = await openDb({ url: viaProxy.toString(), requestTimeoutMs: 2_000 }, false);
      try {
        const ids: number[] = [];
        for (const slug of ["once-a", "once-b", "once-c"]) {
          const [{ id }] = await sql`INSERT INTO tenants (slug, cms) VALUES (${slug}, 'generic')
            RETURNING id`;
          ids.push(id);
        }
        const usage = new UsageAggregator({
          target: postgresFlushTarget(handle.db),
          clock: { now: () => Date.now() },
          log: silentLogger,
          flushIntervalMs: 3_600_000,
          flushMaxEntries: 100,
          requestLogSampleRate: 0,
        });
        const totals = async () => {
          const rows = await sql`SELECT coalesce(sum(requests), 0)::int AS n,
            coalesce(sum(bytes), 0)::int AS b FROM usage_daily`;
          return [rows[0].n, rows[0].b];
        };
        let recorded = 0;
        const record = (n: number) => {
          for (let i = 0; i < n; i++) usage.record(visit(ids[recorded++ % ids.length], i));
        };
        record(30);
        proxy.arm(cut);
        await usage.flush();
        assert(proxy.cuts > 0, "the proxy cut a COMMIT");
        assertEquals(usage.status().flushErrors, 1, "the cut flush failed");
        // A COMMIT the client gave up on may still be landing on the server: wait for it
        // (at most 2 s) rather than read its outcome the instant the client saw the cut.
        const expected = cut === "after-commit" ? 30 : 0;
        let [afterCut] = await totals();
        for (let i = 0; i < 40 && afterCut !== expected; i++) {
          await new Promise((r) => setTimeout(r, 50));
          [afterCut] = await totals();
        }
        assertEquals(afterCut, expected, "the cut flush's own outcome");
        proxy.arm("none");
        record(9); // more deltas for the same buckets arrive before the retry
        await usage.flush();
        assertEquals(usage.status().pendingBuckets, 0);
        assertEquals(await totals(), [recorded, recorded * 100]);
        record(3); // and later flushes are whole again
        await usage.flush();
        assertEquals(await totals(), [recorded, recorded * 100]);
      } finally {
        await handle.close();
        proxy.close();
        await sql.end();
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
        await admin.end();
      }
    },
  });
}
