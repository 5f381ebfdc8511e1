// deno-lint-ignore-file no-explicit-any -- JSON bodies in tests are read loosely
import { assert, assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, signUp, tenantIdOf, type TestApp } from "./harness.ts";
import { seedUsageDays } from "./fakes/usage_rows.ts";
import { memberWithRole } from "./roles.ts";
import { deleteSnapshot, readSnapshot } from "../lib/kv/snapshot.ts";
import { listMigrations } from "../lib/db/migrate.ts";
import { LogRing } from "../lib/log.ts";

const ROOT = "root@example.com";
const opts = { env: { ADMIN_EMAILS: ROOT, LOG_LEVEL: "info" } };
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0); // 2026-11-22 12:00 UTC
const MINUTE = 60_000;

const ROUTES: [string, string][] = [
  ["GET", "/api/admin/cloudflare-cost"],
  ["GET", "/api/admin/usage-stream"],
  ["GET", "/api/admin/usage-diagnostic"],
  ["GET", "/api/admin/logs"],
  ["POST", "/api/admin/logs-test"],
  ["POST", "/api/admin/d1-init"],
  ["POST", "/api/admin/migrate-kv-to-d1"],
  ["POST", "/api/admin/backfill-members"],
];

/** 400 naming the field: its path, or for an unknown parameter the key in the message. */
function assertBadField(r: { status: number; body: any }, field: string, known: string[]) {
  assertEquals(r.status, 400, field);
  assertEquals(r.body.error.code, "bad_request");
  if (known.includes(field)) assertEquals(r.body.error.details.fields[0].path, field);
  else assertEquals(r.body.error.details.fields[0].message, `Unrecognized key: "${field}"`);
}

async function seedLog(app: TestApp, tenantId: number, at: string, path: string, status = 200) {
  await app.services.dbHandle.exec(
    `INSERT INTO request_logs (tenant_id, ts, method, path, status, bytes, cache, duration_ms, kind)
     VALUES (${tenantId}, '${at}', 'GET', '${path}', ${status}, 123, 'HIT', 4, 'api')`,
  );
}

dbTest(
  "every platform route: 401 anonymous, 403 for a non-admin (even a tenant owner)",
  async (app) => {
    const anon = new Client(app);
    const owner = await signUp(app);
    await createTenant(owner);
    for (const [method, path] of ROUTES) {
      const a = await anon.request(method, path, method === "POST" ? {} : undefined);
      assertEquals(a.status, 401, `${method} ${path}`);
      assertEquals(a.body.error.code, "unauthorized");
      const o = await owner.request(method, path, method === "POST" ? {} : undefined);
      assertEquals(o.status, 403, `${method} ${path}`);
      assertEquals(o.body.error.code, "forbidden");
    }
  },
  opts,
);

dbTest(
  "cloudflare-cost: modeled from the period's usage, cached 10 minutes per period",
  async (app) => {
    app.clock.set(NOW);
    const root = await signUp(app, ROOT);
    const owner = await signUp(app);
    const a = await tenantIdOf(app, await createTenant(owner));
    const b = await tenantIdOf(app, await createTenant(owner));
    await seedUsageDays(app, a, [
      { day: "2026-11-01", requests: 1_500_000, bytes: 1000 },
      { day: "2026-11-30", requests: 250_000, bytes: 24 },
      { day: "2026-10-31", requests: 9_000_000, bytes: 9 }, // other period
    ]);
    await seedUsageDays(app, b, [{ day: "2026-11-15", requests: 250_000, bytes: 1 }]);
    await seedLog(app, a, "2026-11-02T00:00:00Z", "/x");
    await seedLog(app, b, "2026-11-30T23:59:59Z", "/y");
    await seedLog(app, b, "2026-12-01T00:00:00Z", "/z"); // other period

    const r = await root.get("/api/admin/cloudflare-cost");
    assertEquals(r.status, 200);
    assertEquals(r.body.period, "2026-11");
    assertEquals(r.body.costSource, "modeled");
    assertEquals(r.body.costConfidence, "low");
    assertEquals(r.body.fallbackReason, "live_cost_not_configured");
    assertEquals(r.body.fetchedAt, "2026-11-22T12:00:00.000Z");
    assertEquals(r.body.cacheAgeMs, 0);
    assertEquals(r.body.inputs, {
      requests: 2_000_000,
      bytes: 1025,
      usageDailyRows: 3,
      requestLogRows: 2,
      tenants: 2,
      daysInPeriod: 30,
      kvReads: 2_000_000,
      kvWrites: 60,
    });
    // 2M × 0.30/M; 5 rows × 1.00/M; 2M × 0.50/M + 60 × 5.00/M
    assertEquals(r.body.cost, {
      workersCost: 0.6,
      d1Cost: 0.000005,
      kvCost: 1.0003,
      totalCost: 1.600305,
    });

    // New traffic within 10 minutes: the cached figures, with their age.
    await seedUsageDays(app, b, [{ day: "2026-11-16", requests: 1_000_000, bytes: 0 }]);
    app.clock.advance(9 * MINUTE);
    const cached = await root.get("/api/admin/cloudflare-cost?period=2026-11");
    assertEquals(cached.body.cacheAgeMs, 9 * MINUTE);
    assertEquals(cached.body.fetchedAt, "2026-11-22T12:00:00.000Z");
    assertEquals(cached.body.cost.workersCost, 0.6);

    // Another period is computed on its own.
    const oct = await root.get("/api/admin/cloudflare-cost?period=2026-10");
    assertEquals(oct.body.cacheAgeMs, 0);
    assertEquals(oct.body.inputs.requests, 9_000_000);
    assertEquals(oct.body.inputs.daysInPeriod, 31);
    assertEquals(oct.body.cost.workersCost, 2.7);

    app.clock.advance(1 * MINUTE); // 10 minutes after the first computation
    const fresh = await root.get("/api/admin/cloudflare-cost?period=2026-11");
    assertEquals(fresh.body.cacheAgeMs, 0);
    assertEquals(fresh.body.fetchedAt, "2026-11-22T12:10:00.000Z");
    assertEquals(fresh.body.inputs.requests, 3_000_000);
    assertEquals(fresh.body.inputs.usageDailyRows, 4);
    assertEquals(fresh.body.cost.workersCost, 0.9);
  },
  opts,
);

dbTest("cloudflare-cost: 400 on a bad period or an unknown parameter", async (app) => {
  const root = await signUp(app, ROOT);
  for (const q of ["period=2026-13", "period=2026-1", "period=", "month=2026-11"]) {
    const r = await root.get(`/api/admin/cloudflare-cost?${q}`);
    assertBadField(r, q.split("=")[0], ["period"]);
  }
}, opts);

dbTest("usage-stream: newest first across tenants, keyset pages, tenant slugs", async (app) => {
  app.clock.set(NOW);
  const root = await signUp(app, ROOT);
  const owner = await signUp(app);
  const sa = await createTenant(owner);
  const sb = await createTenant(owner);
  const a = await tenantIdOf(app, sa);
  const b = await tenantIdOf(app, sb);
  await seedLog(app, a, "2026-11-20T10:00:00Z", "/one");
  await seedLog(app, b, "2026-11-20T11:00:00Z", "/two", 502);
  await seedLog(app, a, "2026-11-20T12:00:00Z", "/three");

  const p1 = await root.get("/api/admin/usage-stream?limit=2");
  assertEquals(p1.status, 200);
  assertEquals(p1.body.items.map((i: any) => [i.id, i.tenant, i.path]), [
    [3, sa, "/three"],
    [2, sb, "/two"],
  ]);
  assertEquals(p1.body.items[1], {
    id: 2,
    tenant: sb,
    ts: "2026-11-20T11:00:00.000Z",
    method: "GET",
    path: "/two",
    status: 502,
    bytes: 123,
    cache: "HIT",
    durationMs: 4,
    kind: "api",
  });
  assertEquals(p1.body.hasMore, true);
  assertEquals(p1.body.nextCursor, 2);
  assertEquals(p1.body.generatedAt, "2026-11-22T12:00:00.000Z");

  const p2 = await root.get("/api/admin/usage-stream?limit=2&cursor=2");
  assertEquals(p2.body.items.map((i: any) => i.id), [1]);
  assertEquals(p2.body.hasMore, false);
  assertEquals(p2.body.nextCursor, null);

  const all = await root.get("/api/admin/usage-stream");
  assertEquals(all.body.items.map((i: any) => i.id), [3, 2, 1]);

  for (const q of ["limit=0", "limit=201", "limit=x", "cursor=0", "cursor=-1", "tenant=a"]) {
    const r = await root.get(`/api/admin/usage-stream?${q}`);
    assertBadField(r, q.split("=")[0], ["limit", "cursor"]);
  }
}, opts);

dbTest("usage-diagnostic: database kind, row counts and bounds, aggregator, KV", async (app) => {
  app.clock.set(NOW);
  const root = await signUp(app, ROOT);
  const owner = await signUp(app);
  const a = await tenantIdOf(app, await createTenant(owner));
  await seedUsageDays(app, a, [
    { day: "2026-11-03", requests: 1, bytes: 1 },
    { day: "2026-11-21", requests: 2, bytes: 2 },
  ]);
  await seedLog(app, a, "2026-11-20T10:00:00Z", "/one");
  await seedLog(app, a, "2026-11-21T10:00:00Z", "/two");

  const r = await root.get("/api/admin/usage-diagnostic");
  assertEquals(r.status, 200);
  const migrations = await listMigrations();
  assertEquals(r.body.database, {
    kind: app.backend,
    migrations: migrations.length,
    latestMigration: migrations[migrations.length - 1].name,
  });
  assertEquals(r.body.usageDaily, { rows: 2, firstDay: "2026-11-03", lastDay: "2026-11-21" });
  assertEquals(r.body.requestLogs, {
    rows: 2,
    oldestAt: "2026-11-20T10:00:00.000Z",
    newestAt: "2026-11-21T10:00:00.000Z",
  });
  assertEquals(r.body.kv, { reachable: true, error: null });
  assertEquals(r.body.aggregator.enabled, true);
  assertEquals(r.body.aggregator.flushes, app.instance.usageAggregator.status().flushes);
  assertEquals(r.body.generatedAt, "2026-11-22T12:00:00.000Z");

  assertBadField(await root.get("/api/admin/usage-diagnostic?verbose=1"), "verbose", []);
}, opts);

dbTest(
  "logs-test writes through the logger; logs pages newest first and filters by level",
  async (app) => {
    app.clock.set(NOW);
    const root = await signUp(app, ROOT);
    const base = app.services.logRing.lastSeq;
    const w1 = await root.post("/api/admin/logs-test", {});
    assertEquals(w1.status, 200);
    assertEquals(w1.body, {
      ok: true,
      seq: base + 1,
      level: "info",
      message: "admin log test",
      at: "2026-11-22T12:00:00.000Z",
    });
    app.clock.advance(1000);
    const w2 = await root.post("/api/admin/logs-test", { level: "warn", message: "  disk  " });
    assertEquals([w2.body.seq, w2.body.level, w2.body.message], [base + 2, "warn", "disk"]);
    const w3 = await root.post("/api/admin/logs-test", { level: "error", message: "boom" });
    assertEquals(w3.body.seq, base + 3);
    // Below LOG_LEVEL (info): logged nowhere, so nothing to show.
    const w4 = await root.post("/api/admin/logs-test", { level: "debug" });
    assertEquals([w4.status, w4.body.ok, w4.body.seq], [200, true, null]);

    const p1 = await root.get("/api/admin/logs?limit=2");
    assertEquals(p1.status, 200);
    assertEquals(p1.body.entries, [
      {
        seq: base + 3,
        t: "2026-11-22T12:00:01.000Z",
        level: "error",
        msg: "boom",
        fields: { test: true, by: root.userId },
      },
      {
        seq: base + 2,
        t: "2026-11-22T12:00:01.000Z",
        level: "warn",
        msg: "disk",
        fields: { test: true, by: root.userId },
      },
    ]);
    assertEquals([p1.body.hasMore, p1.body.nextCursor], [true, base + 2]);
    assertEquals([p1.body.capacity, p1.body.minLevel], [1000, "info"]);

    const p2 = await root.get(`/api/admin/logs?limit=1&cursor=${base + 2}`);
    assertEquals(p2.body.entries.map((e: any) => [e.seq, e.msg]), [[base + 1, "admin log test"]]);

    const warn = await root.get("/api/admin/logs?level=warn");
    assertEquals(warn.body.entries.map((e: any) => e.msg).slice(0, 2), ["boom", "disk"]);
    assert(warn.body.entries.every((e: any) => e.level === "warn" || e.level === "error"));
    const errOnly = await root.get("/api/admin/logs?level=error&limit=200");
    assertEquals(errOnly.body.entries.filter((e: any) => e.msg === "boom").length, 1);
    assert(errOnly.body.entries.every((e: any) => e.level === "error"));
    assertEquals(errOnly.body.hasMore, false);

    for (const q of ["limit=0", "limit=201", "cursor=abc", "level=fatal", "since=1"]) {
      const r = await root.get(`/api/admin/logs?${q}`);
      assertBadField(r, q.split("=")[0], ["limit", "cursor", "level"]);
    }
    for (
      const body of [{ message: "x".repeat(201) }, { level: "fatal" }, { message: "" }, {
        extra: 1,
      }]
    ) {
      const r = await root.post("/api/admin/logs-test", body);
      assertEquals(r.status, 400, JSON.stringify(body));
    }
    const malformed = await root.post("/api/admin/logs-test", "{");
    assertEquals(malformed.status, 400);
  },
  opts,
);

Deno.test("LogRing keeps the newest entries up to its capacity and redacts secret-like fields", () => {
  const ring = new LogRing(3);
  for (let i = 1; i <= 5; i++) ring.push(i * 1000, "info", `m${i}`);
  assertEquals(ring.newestFirst().map((e) => [e.seq, e.msg]), [[5, "m5"], [4, "m4"], [3, "m3"]]);
  const e = ring.push(0, "error", "x", {
    token: "cly_pat_abc",
    apiSecret: "s",
    stack: "Error at …",
    path: "/a",
  });
  assertEquals(e.fields, { token: "[redacted]", apiSecret: "[redacted]", path: "/a" });
  assertEquals(ring.lastSeq, 6);
});

dbTest("d1-init re-runs migrations idempotently; an unreachable database is a 503", async (app) => {
  const root = await signUp(app, ROOT);
  const r = await root.post("/api/admin/d1-init");
  assertEquals(r.status, 200);
  assertEquals(r.body, {
    ok: true,
    database: app.backend,
    applied: [],
    total: (await listMigrations()).length,
  });
  const bad = await root.post("/api/admin/d1-init", { force: true });
  assertEquals(bad.status, 400);

  const h = app.services.dbHandle;
  const exec = h.exec;
  h.exec = () => Promise.reject(new Error("connection refused: secret-host:5432"));
  try {
    // a database that cannot be reached is a 503 with Retry-After, its address unsaid.
    const failed = await root.post("/api/admin/d1-init");
    assertEquals(failed.status, 503);
    assertEquals(failed.body.error.code, "unavailable");
    assertEquals(failed.headers.get("retry-after"), "5");
    assertEquals(failed.text.includes("secret-host"), false);
  } finally {
    h.exec = exec;
  }
}, opts);

dbTest(
  "migrate-kv-to-d1 rebuilds deleted KV snapshots from the database; dryRun writes nothing",
  async (app) => {
    const root = await signUp(app, ROOT);
    const owner = await signUp(app);
    const sa = await createTenant(owner);
    const sb = await createTenant(owner);
    await deleteSnapshot(app.services.kv, sa);
    assertEquals(await readSnapshot(app.services.kv, sa), null);

    const dry = await root.post("/api/admin/migrate-kv-to-d1", { dryRun: true });
    assertEquals(dry.status, 200);
    assertEquals(dry.body, { ok: true, dryRun: true, tenants: 2, synced: 0, failed: [] });
    assertEquals(await readSnapshot(app.services.kv, sa), null);

    const run = await root.post("/api/admin/migrate-kv-to-d1");
    assertEquals(run.body, { ok: true, dryRun: false, tenants: 2, synced: 2, failed: [] });
    const snap = await readSnapshot(app.services.kv, sa);
    assertEquals(snap?.slug, sa);
    assertEquals(snap?.tenantId, await tenantIdOf(app, sa));
    assertEquals((await readSnapshot(app.services.kv, sb))?.slug, sb);

    for (const body of [{ dryRun: "yes" }, { tenants: [sa] }]) {
      const r = await root.post("/api/admin/migrate-kv-to-d1", body);
      assertEquals(r.status, 400, JSON.stringify(body));
    }
  },
  opts,
);

dbTest("backfill-members seeds the creator of member-less tenants as owner, once", async (app) => {
  const root = await signUp(app, ROOT);
  const alice = await signUp(app);
  const bob = await signUp(app);
  const orphan = await createTenant(alice);
  const kept = await createTenant(alice);
  const handedOver = await createTenant(bob);
  const o = await tenantIdOf(app, orphan);
  const h = await tenantIdOf(app, handedOver);
  await app.services.dbHandle.exec(`DELETE FROM tenant_members WHERE tenant_id = ${o}`);
  // bob's tenant now belongs to carol alone: bob must not come back through the backfill.
  const carol = await memberWithRole(app, bob, handedOver, "owner");
  await app.services.dbHandle.exec(
    `DELETE FROM tenant_members WHERE tenant_id = ${h} AND user_id = '${bob.userId}'`,
  );
  assertEquals((await alice.get(`/api/tenants/${orphan}`)).status, 404);

  const r = await root.post("/api/admin/backfill-members");
  assertEquals(r.status, 200);
  assertEquals(r.body, { ok: true, seeded: 1 });
  const rows = await app.services.dbHandle.query<
    { tenant_id: number; user_id: string; role: string }
  >(
    `SELECT tenant_id, user_id, role FROM tenant_members ORDER BY tenant_id, user_id`,
  );
  assertEquals(rows.map((x) => [x.tenant_id, x.user_id, x.role]), [
    [o, alice.userId, "owner"],
    [await tenantIdOf(app, kept), alice.userId, "owner"],
    [h, carol.userId, "owner"],
  ]);
  assertEquals((await alice.get(`/api/tenants/${orphan}`)).status, 200);

  const again = await root.post("/api/admin/backfill-members", {});
  assertEquals(again.body, { ok: true, seeded: 0 });
  assertBadField(await root.post("/api/admin/backfill-members", { all: true }), "all", []);
}, opts);
