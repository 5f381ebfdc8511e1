import { assert, assertEquals } from "./assert.ts";
import { createTenant, createTestApp, dbTest, openTestDb, signUp, tenantIdOf } from "./harness.ts";
import { BACKENDS } from "./harness.ts";
import type { TestApp } from "./harness.ts";
import { UsageAggregator } from "../lib/usage/aggregator.ts";
import { postgresFlushTarget } from "../lib/usage/pg_target.ts";
import type { UsageBatch, UsageFlushTarget } from "../lib/usage/types.ts";
import type { UsageRecord } from "../edge/types.ts";
import { silentLogger } from "../lib/log.ts";

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

async function tenantId(app: TestApp): Promise<number> {
  const owner = await signUp(app);
  return await tenantIdOf(app, await createTenant(owner));
}

function rec(tenantId: number, p: Partial<UsageRecord> = {}): UsageRecord {
  return {
    tenantId,
    ts: T0,
    method: "GET",
    path: "/~api/x",
    status: 200,
    bytes: 2048,
    cache: "HIT",
    kind: "api",
    durationMs: 2,
    ...p,
  };
}

function aggregator(app: TestApp, target: UsageFlushTarget, sampleRate = 1) {
  return new UsageAggregator({
    target,
    clock: app.clock,
    log: silentLogger,
    flushIntervalMs: 60_000,
    flushMaxEntries: 100,
    requestLogSampleRate: sampleRate,
  });
}

type Row = Record<string, string | number | null>;
const num = (v: unknown) => Number(v);

// ---- happy ----

dbTest("the Postgres target upserts usage_daily by adding deltas", async (app) => {
  const id = await tenantId(app);
  const agg = aggregator(app, postgresFlushTarget(app.services.db), 0);
  agg.record(rec(id, { cache: "HIT", bytes: 100 }));
  agg.record(rec(id, { cache: "MISS", bytes: 50 }));
  await agg.flush();
  agg.record(rec(id, { cache: "STALE", bytes: 1, status: 503 }));
  agg.record(rec(id, { cache: "BYPASS", bytes: 2, ts: T0 + 86_400_000 }));
  await agg.flush();
  const rows = await app.services.dbHandle.query<Row>(
    `SELECT day::text AS day, requests, bytes, hits, misses, stale, bypass, errors
     FROM usage_daily WHERE tenant_id = ${id} ORDER BY day`,
  );
  assertEquals(
    rows.map((
      r,
    ) => [
      r.day,
      ...["requests", "bytes", "hits", "misses", "stale", "bypass", "errors"].map((k) => num(r[k])),
    ]),
    [
      ["2026-11-22", 3, 151, 1, 1, 1, 0, 1],
      ["2026-11-23", 1, 2, 0, 0, 0, 1, 0],
    ],
  );
});

dbTest("sampled request logs and exposure counts reach their tables", async (app) => {
  const id = await tenantId(app);
  const agg = aggregator(app, postgresFlushTarget(app.services.db), 1);
  const x = { experimentId: 7, variantId: 70, variantKey: "bold" };
  agg.record(rec(id, { experiment: x, path: "/~api/home?visitor=42" }));
  agg.record(rec(id, { experiment: x, ts: T0 + 1000 }));
  await agg.flush();
  agg.record(rec(id, { experiment: x, ts: T0 + 500 }));
  await agg.flush();
  const logs = await app.services.dbHandle.query<Row>(
    `SELECT path, status, bytes, cache, kind, experiment_id, variant_id FROM request_logs
     WHERE tenant_id = ${id} ORDER BY id`,
  );
  assertEquals(logs.length, 3);
  assertEquals(logs[0].path, "/~api/home");
  assertEquals(num(logs[0].experiment_id), 7);
  assertEquals(num(logs[0].variant_id), 70);
  assertEquals(logs[0].cache, "HIT");
  const [exp] = await app.services.dbHandle.query<Row>(
    `SELECT tenant_id, exposures, last_seen_at FROM exposure_counts
     WHERE experiment_id = 7 AND variant_id = 70 AND variant_key = 'bold'`,
  );
  assertEquals(num(exp.tenant_id), id);
  assertEquals(num(exp.exposures), 3);
  assertEquals(
    new Date(exp.last_seen_at as string).getTime(),
    T0 + 1000,
    "GREATEST keeps the latest",
  );
});

dbTest(
  "a batch larger than one statement lands whole, values intact, in record order",
  async (app) => {
    const id = await tenantId(app);
    const target = postgresFlushTarget(app.services.db);
    // 123 logs span three statements of 50; paths carry quotes, unicode and JSON-like text.
    const logs = Array.from({ length: 123 }, (_, i) => ({
      tenantId: id,
      ts: T0 + i * 1000 + 7,
      method: i % 2 ? "HEAD" : "GET",
      path: `/~api/it's "${i}"/ünï/{"a":[${i}]}`,
      status: 200 + (i % 3),
      bytes: 3_000_000_000 + i,
      cache: i % 5 ? "HIT" : null,
      durationMs: i,
      kind: "api",
      experimentId: i % 4 ? null : 9,
      variantId: i % 4 ? null : 90,
    }));
    const res = await target.write({ buckets: [], logs, exposures: [] });
    assertEquals(res.discarded, 0);
    const rows = await app.services.dbHandle.query<Row>(
      `SELECT (extract(epoch FROM ts) * 1000)::bigint AS ms, method, path, status, bytes, cache,
       duration_ms, experiment_id, variant_id FROM request_logs WHERE tenant_id = ${id} ORDER BY id`,
    );
    assertEquals(rows.length, 123);
    for (const [i, r] of rows.entries()) {
      const l = logs[i];
      assertEquals(
        [num(r.ms), r.method, r.path, num(r.status), num(r.bytes), r.cache, num(r.duration_ms)],
        [l.ts, l.method, l.path, l.status, l.bytes, l.cache, l.durationMs],
      );
      assertEquals(r.experiment_id === null ? null : num(r.experiment_id), l.experimentId);
    }
  },
);

dbTest(
  "rows of a tenant deleted before the flush are discarded, not retried forever",
  async (app) => {
    const live = await tenantId(app);
    const gone = await tenantId(app);
    const agg = aggregator(app, postgresFlushTarget(app.services.db), 1);
    agg.record(rec(live));
    agg.record(rec(gone));
    await app.services.dbHandle.exec(`DELETE FROM tenants WHERE id = ${gone}`);
    await agg.flush();
    const st = agg.status();
    assertEquals(st.flushErrors, 0);
    assertEquals(st.pendingBuckets + st.pendingLogs, 0);
    assertEquals(st.droppedOnOverflow, 2);
    const rows = await app.services.dbHandle.query<Row>(`SELECT tenant_id FROM usage_daily`);
    assertEquals(rows.map((r) => num(r.tenant_id)), [live]);
  },
);

dbTest(
  "bootstrap wires the aggregator into services and the status reflects the config",
  async (app) => {
    const agg = app.instance.usageAggregator;
    assert(agg instanceof UsageAggregator);
    const st = agg.status();
    assertEquals(st.enabled, true);
    assertEquals(st.flushIntervalMs, 250);
    assertEquals(st.flushMaxEntries, 7);
    assertEquals(st.requestLogSampleRate, 0.5);
    const id = await tenantId(app);
    agg.record(rec(id));
    await agg.flush();
    const [row] = await app.services.dbHandle.query<Row>(
      `SELECT requests FROM usage_daily WHERE tenant_id = ${id}`,
    );
    assertEquals(num(row.requests), 1);
  },
  {
    env: {
      USAGE_FLUSH_INTERVAL_MS: "250",
      USAGE_FLUSH_MAX_ENTRIES: "7",
      REQUEST_LOG_SAMPLE_RATE: "0.5",
    },
  },
);

for (const backend of BACKENDS) {
  Deno.test({
    name: `App.close() flushes pending usage before the database closes [${backend}]`,
    async fn() {
      const app = await createTestApp(backend);
      const id = await tenantId(app);
      const agg = app.instance.usageAggregator;
      agg.record(rec(id));
      assertEquals(agg.status().pendingBuckets, 1);
      await app.close();
      const st = agg.status();
      assertEquals(st.flushErrors, 0);
      assertEquals(st.flushes, 1);
      assertEquals(st.pendingBuckets, 0);
      assertEquals(st.enabled, false);
    },
  });
}

dbTest("record() stays synchronous while a flush is stuck on the database", async (app) => {
  const id = await tenantId(app);
  const stuck = Promise.withResolvers<{ discarded: number }>();
  const agg = aggregator(app, { write: () => stuck.promise }, 0);
  agg.record(rec(id));
  const flushing = agg.flush();
  for (let i = 0; i < 100; i++) agg.record(rec(id, { ts: T0 + i }));
  // The visitor-facing call returned 100 times while the write is still pending.
  assertEquals(agg.status().enqueuedDeltas, 101);
  assertEquals(agg.status().pendingBuckets, 1, "new deltas wait in a fresh bucket");
  stuck.resolve({ discarded: 0 });
  await flushing;
  assertEquals(agg.status().flushes, 1);
});

// ---- errors ----

dbTest("a flush against a dead database keeps the deltas and counts the error", async (app) => {
  const id = await tenantId(app);
  const dead = await openTestDb(app.backend);
  await dead.close();
  const deadTarget = postgresFlushTarget(dead.db);
  const liveTarget = postgresFlushTarget(app.services.db);
  let target = deadTarget;
  const switching: UsageFlushTarget = { write: (b: UsageBatch) => target.write(b) };
  const agg = aggregator(app, switching, 1);
  agg.record(rec(id, { bytes: 10 }));
  await agg.flush();
  let st = agg.status();
  assertEquals(st.flushErrors, 1);
  assertEquals(st.flushes, 0);
  assert(st.lastError !== null && st.lastError.length > 0);
  assertEquals(st.pendingBuckets, 1);
  assertEquals(st.pendingLogs, 1);
  agg.record(rec(id, { bytes: 5 }));
  target = liveTarget;
  await agg.flush();
  st = agg.status();
  assertEquals(st.flushes, 1);
  assertEquals(st.lastError, null);
  const [row] = await app.services.dbHandle.query<Row>(
    `SELECT requests, bytes FROM usage_daily WHERE tenant_id = ${id}`,
  );
  assertEquals([num(row.requests), num(row.bytes)], [2, 15]);
  const [logs] = await app.services.dbHandle.query<Row>(
    `SELECT count(*) AS n FROM request_logs WHERE tenant_id = ${id}`,
  );
  assertEquals(num(logs.n), 2);
});

dbTest("a batch fails as a whole: no partial rows when one insert breaks", async (app) => {
  const id = await tenantId(app);
  const agg = aggregator(app, postgresFlushTarget(app.services.db), 1);
  // status is an integer column: 2^40 makes the request_logs insert fail after usage_daily ran.
  agg.record(rec(id, { experiment: { experimentId: 1, variantId: 1, variantKey: "a" } }));
  agg.record(rec(id, { status: 2 ** 40 }));
  await agg.flush();
  assertEquals(agg.status().flushErrors, 1);
  const rows = await app.services.dbHandle.query<Row>(
    `SELECT tenant_id FROM usage_daily WHERE tenant_id = ${id}`,
  );
  assertEquals(rows.length, 0, "usage_daily rolled back with the failing request_logs insert");
});
