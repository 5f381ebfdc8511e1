/** POST /api/usage/ingest and GET /api/usage/check (X-Ingest-Key). */
import { Client, createTenant, dbTest, signUp, tenantIdOf, type TestApp } from "./harness.ts";
import { assertEquals } from "./assert.ts";
import { ManualClock } from "../lib/clock.ts";
import { seedUsageDays } from "./fakes/usage_rows.ts";
import { activeExperiment, team } from "./experiments_helpers.ts";

const KEY = "ingest-key-0123456789abcdef";
const NOW = Date.UTC(2026, 2, 15, 12, 0, 0); // 2026-03-15
const opts = {
  env: { INGEST_KEY: KEY, REQUEST_LOG_SAMPLE_RATE: "1" },
  clock: new ManualClock(NOW),
};
const auth = { "x-ingest-key": KEY };

async function dailyRows(app: TestApp, tenantId: number) {
  const rows = await app.services.dbHandle.query<Record<string, unknown>>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, requests, bytes, hits, misses, stale, bypass, errors
     FROM usage_daily WHERE tenant_id = ${tenantId} ORDER BY day`,
  );
  return rows.map((r) => ({
    day: r.day,
    requests: Number(r.requests),
    bytes: Number(r.bytes),
    hits: Number(r.hits),
    misses: Number(r.misses),
    stale: Number(r.stale),
    bypass: Number(r.bypass),
    errors: Number(r.errors),
  }));
}

async function logCount(app: TestApp, tenantId: number): Promise<number> {
  const [r] = await app.services.dbHandle.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM request_logs WHERE tenant_id = ${tenantId}`,
  );
  return Number(r.n);
}

async function setup(app: TestApp) {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  return { slug, tenantId: await tenantIdOf(app, slug), edge: new Client(app) };
}

dbTest("ingest: a single record lands in usage_daily and request_logs", async (app) => {
  const { slug, tenantId, edge } = await setup(app);
  const r = await edge.post("/api/usage/ingest", {
    tenant: slug,
    bytes: 1234,
    method: "get",
    path: "/spaces/x/entries",
    status: 200,
    cache: "HIT",
    kind: "api",
    durationMs: 12,
  }, auth);
  assertEquals(r.status, 200);
  assertEquals(r.body, { ok: true, accepted: 1 });
  assertEquals(r.headers.get("cache-control"), "no-store");
  await app.instance.usageAggregator.flush();
  assertEquals(await dailyRows(app, tenantId), [
    {
      day: "2026-03-15",
      requests: 1,
      bytes: 1234,
      hits: 1,
      misses: 0,
      stale: 0,
      bypass: 0,
      errors: 0,
    },
  ]);
  const [log] = await app.services.dbHandle.query<Record<string, unknown>>(
    `SELECT method, path, status, bytes, cache, duration_ms, kind FROM request_logs
     WHERE tenant_id = ${tenantId}`,
  );
  assertEquals({ ...log, bytes: Number(log.bytes) }, {
    method: "GET",
    path: "/spaces/x/entries",
    status: 200,
    bytes: 1234,
    cache: "HIT",
    duration_ms: 12,
    kind: "api",
  });
}, opts);

dbTest("ingest: a batch over two tenants and two days is counted exactly", async (app) => {
  const a = await setup(app);
  const b = await setup(app);
  const yesterday = NOW - 24 * 3600_000;
  const records = [
    { tenant: a.slug, bytes: 100, path: "/a", status: 200, cache: "HIT" },
    { tenant: a.slug, bytes: 200, path: "/b", status: 200, cache: "MISS" },
    { tenant: a.slug, bytes: 300, path: "/c", status: 503, cache: null },
    { tenant: a.slug, bytes: 50, path: "/d", status: 200, cache: "STALE", ts: yesterday },
    { tenant: b.slug.toUpperCase(), bytes: 7, path: "/e", status: 404, cache: "BYPASS" },
  ];
  const r = await a.edge.post("/api/usage/ingest", { records }, auth);
  assertEquals(r.status, 200);
  assertEquals(r.body, { ok: true, accepted: 5 });
  await app.instance.usageAggregator.flush();
  assertEquals(await dailyRows(app, a.tenantId), [
    {
      day: "2026-03-14",
      requests: 1,
      bytes: 50,
      hits: 0,
      misses: 0,
      stale: 1,
      bypass: 0,
      errors: 0,
    },
    {
      day: "2026-03-15",
      requests: 3,
      bytes: 600,
      hits: 1,
      misses: 1,
      stale: 0,
      bypass: 0,
      errors: 1,
    },
  ]);
  assertEquals(await dailyRows(app, b.tenantId), [
    {
      day: "2026-03-15",
      requests: 1,
      bytes: 7,
      hits: 0,
      misses: 0,
      stale: 0,
      bypass: 1,
      errors: 0,
    },
  ]);
  assertEquals(await logCount(app, a.tenantId), 4);
}, opts);

dbTest("ingest: key checks (401 missing, 403 wrong)", async (app) => {
  const { slug, tenantId, edge } = await setup(app);
  const rec = { tenant: slug, bytes: 1, path: "/", status: 200 };
  const missing = await edge.post("/api/usage/ingest", rec);
  assertEquals(missing.status, 401);
  assertEquals(missing.body.error.code, "unauthorized");
  const wrong = await edge.post("/api/usage/ingest", rec, { "x-ingest-key": KEY + "x" });
  assertEquals(wrong.status, 403);
  assertEquals(wrong.body.error.code, "invalid_ingest_key");
  // A session does not stand in for the key.
  const owner = await signUp(app);
  assertEquals((await owner.post("/api/usage/ingest", rec)).status, 401);
  await app.instance.usageAggregator.flush();
  assertEquals(await dailyRows(app, tenantId), []);
}, opts);

dbTest("ingest and check: 403 ingest_not_configured without INGEST_KEY", async (app) => {
  const { slug, edge } = await setup(app);
  const r = await edge.post(
    "/api/usage/ingest",
    { tenant: slug, bytes: 1, path: "/", status: 200 },
    {
      "x-ingest-key": KEY,
    },
  );
  assertEquals(r.status, 403);
  assertEquals(r.body.error.code, "ingest_not_configured");
  const c = await edge.get(`/api/usage/check?tenant=${slug}`, { "x-ingest-key": KEY });
  assertEquals(c.status, 403);
  assertEquals(c.body.error.code, "ingest_not_configured");
});

dbTest("ingest: a response over 2 GiB is counted whole", async (app) => {
  const { slug, tenantId, edge } = await setup(app);
  const big = 5 * 1024 ** 3;
  const r = await edge.post("/api/usage/ingest", {
    tenant: slug,
    bytes: big,
    path: "/v.mp4",
    status: 200,
  }, auth);
  assertEquals(r.status, 200);
  await app.instance.usageAggregator.flush();
  assertEquals((await dailyRows(app, tenantId))[0].bytes, big);
}, opts);

dbTest("ingest: 400 names the field, and a bad batch records nothing", async (app) => {
  const { slug, tenantId, edge } = await setup(app);
  const good = { tenant: slug, bytes: 1, path: "/", status: 200 };
  const cases: [unknown, string][] = [
    [{ ...good, bytes: -1 }, "bytes"],
    [{ ...good, bytes: 1.5 }, "bytes"],
    [{ ...good, bytes: 2 ** 40 + 1 }, "bytes"],
    [{ ...good, status: 99 }, "status"],
    [{ ...good, path: "no-slash" }, "path"],
    [{ ...good, cache: "WARM" }, "cache"],
    [{ ...good, kind: "video" }, "kind"],
    [{ ...good, ts: NOW + 3600_000 }, "ts"],
    [{ ...good, ts: NOW - 31 * 24 * 3600_000 }, "ts"],
    [{ bytes: 1, path: "/", status: 200 }, "tenant"],
    [{ records: [good, good, good, { ...good, bytes: "9" }] }, "records.3.bytes"],
    [{ records: [] }, "records"],
    [{ records: "x" }, "records"],
  ];
  for (const [body, field] of cases) {
    const r = await edge.post("/api/usage/ingest", body, auth);
    assertEquals(r.status, 400, JSON.stringify(body));
    assertEquals(r.body.error.details.fields[0].path, field, JSON.stringify(body));
  }
  const junk = await edge.post("/api/usage/ingest", "{not json", auth);
  assertEquals(junk.status, 400);
  await app.instance.usageAggregator.flush();
  assertEquals(await dailyRows(app, tenantId), []);
}, opts);

dbTest("ingest: oversized batch is 400, oversized body 413", async (app) => {
  const { slug, edge } = await setup(app);
  const rec = { tenant: slug, bytes: 1, path: "/", status: 200 };
  const r = await edge.post("/api/usage/ingest", { records: Array(1001).fill(rec) }, auth);
  assertEquals(r.status, 400);
  assertEquals(r.body.error.details.fields[0].path, "records");
  const big = await edge.post("/api/usage/ingest", {
    records: [{ ...rec, path: "/" + "x".repeat(2000) }],
    pad: "y".repeat(1024 * 1024),
  }, auth);
  assertEquals(big.status, 413);
  const ok = await edge.post("/api/usage/ingest", { records: Array(1000).fill(rec) }, auth);
  assertEquals(ok.body, { ok: true, accepted: 1000 });
}, opts);

dbTest("ingest: an unknown tenant is 404 and nothing in the batch is counted", async (app) => {
  const { slug, tenantId, edge } = await setup(app);
  const r = await edge.post("/api/usage/ingest", {
    records: [
      { tenant: slug, bytes: 10, path: "/", status: 200 },
      { tenant: "no-such-tenant", bytes: 10, path: "/", status: 200 },
    ],
  }, auth);
  assertEquals(r.status, 404);
  assertEquals(r.body.error, {
    code: "not_found",
    message: "Tenant not found",
    details: { tenant: "no-such-tenant" },
  });
  await app.instance.usageAggregator.flush();
  assertEquals(await dailyRows(app, tenantId), []);
}, opts);

dbTest("check: usage for the period; with QUOTAS=off null limits, allowed", async (app) => {
  const { slug, tenantId, edge } = await setup(app);
  await seedUsageDays(app, tenantId, [
    { day: "2026-02-28", requests: 1000, bytes: 1000 },
    { day: "2026-03-01", requests: 10, bytes: 2048, hits: 6, misses: 2, errors: 1 },
    { day: "2026-03-14", requests: 5, bytes: 100, hits: 2, stale: 2, bypass: 1 },
  ]);
  const r = await edge.get(`/api/usage/check?tenant=${slug}`, auth);
  assertEquals(r.status, 200);
  assertEquals(r.headers.get("cache-control"), "no-store");
  assertEquals(r.body, {
    tenant: slug,
    period: "2026-03",
    usage: {
      from: "2026-03-01",
      to: "2026-04-01",
      requests: 15,
      bytes: 2148,
      hits: 8,
      misses: 2,
      stale: 2,
      bypass: 1,
      errors: 1,
      blocked: 0,
      originRequests: 0,
      originBytes: 0,
      statusClasses: { "1xx": 0, "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0 },
      cacheHitRatio: 0.6667,
    },
    plan: null,
    limits: { requests: null, bytes: null },
    account: null,
    allowed: true,
  });
  const feb = await edge.get(`/api/usage/check?tenant=${slug}&period=2026-02`, auth);
  assertEquals(feb.body.usage.requests, 1000);
  assertEquals(feb.body.usage.bytes, 1000);
  const empty = await edge.get(`/api/usage/check?tenant=${slug}&period=2025-01`, auth);
  assertEquals(empty.body.usage.requests, 0);
  assertEquals(empty.body.usage.cacheHitRatio, 0);
}, opts);

dbTest("check: 400 bad period or missing tenant, 404 unknown tenant, 401/403 key", async (app) => {
  const { slug, edge } = await setup(app);
  for (const p of ["2026-13", "2026-3", "march", ""]) {
    const r = await edge.get(`/api/usage/check?tenant=${slug}&period=${p}`, auth);
    assertEquals(r.status, 400, p);
    assertEquals(r.body.error.details.fields[0].path, "period");
  }
  const noTenant = await edge.get("/api/usage/check", auth);
  assertEquals(noTenant.status, 400);
  assertEquals(noTenant.body.error.details.fields[0].path, "tenant");
  const unknown = await edge.get("/api/usage/check?tenant=nope-nope", auth);
  assertEquals(unknown.status, 404);
  assertEquals((await edge.get(`/api/usage/check?tenant=${slug}`)).status, 401);
  const wrong = await edge.get(`/api/usage/check?tenant=${slug}`, { "x-ingest-key": "x" });
  assertEquals(wrong.status, 403);
}, opts);

dbTest("ingest: experiment arms feed exposure_counts; another tenant's arm is 400", async (app) => {
  const t = await team(app);
  const other = await team(app);
  const exp = await activeExperiment(app, t);
  const foreign = await activeExperiment(app, other);
  const arm = (e: typeof exp, i: number) => ({
    experimentId: e.id,
    variantId: e.variants[i].id,
    variantKey: e.variants[i].key,
  });
  const rec = { tenant: t.slug, bytes: 10, path: "/posts", status: 200 };
  const edge = new Client(app);
  const r = await edge.post("/api/usage/ingest", {
    records: [
      { ...rec, experiment: arm(exp, 0) },
      { ...rec, experiment: arm(exp, 1) },
      { ...rec, experiment: arm(exp, 1) },
      { ...rec, experiment: null },
    ],
  }, auth);
  assertEquals(r.status, 200);
  assertEquals(r.body.accepted, 4);
  const bad = [
    { ...arm(foreign, 0) },
    { ...arm(exp, 0), variantKey: "casual" },
    { ...arm(exp, 0), experimentId: foreign.id },
  ];
  for (const experiment of bad) {
    const x = await edge.post(
      "/api/usage/ingest",
      { records: [rec, { ...rec, experiment }] },
      auth,
    );
    assertEquals(x.status, 400, JSON.stringify(experiment));
    assertEquals(x.body.error.details.fields[0].path, "records.1.experiment");
  }
  const single = await edge.post("/api/usage/ingest", { ...rec, experiment: bad[0] }, auth);
  assertEquals(single.body.error.details.fields[0].path, "experiment");
  await app.instance.usageAggregator.flush();
  const rows = await app.services.dbHandle.query<Record<string, unknown>>(
    `SELECT tenant_id, variant_key, exposures FROM exposure_counts
     WHERE experiment_id IN (${exp.id}, ${foreign.id}) ORDER BY variant_key`,
  );
  assertEquals(rows.map((x) => [x.tenant_id, x.variant_key, Number(x.exposures)]), [
    [t.tenantId, "casual", 2],
    [t.tenantId, "control", 1],
  ]);
  assertEquals((await dailyRows(app, t.tenantId))[0].requests, 4);
}, opts);
