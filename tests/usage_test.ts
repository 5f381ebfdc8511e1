import { assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, signUp, tenantIdOf } from "./harness.ts";
import type { TestApp } from "./harness.ts";
import type { UsageRecord } from "../edge/types.ts";
import { startUpstream } from "./fakes/upstream.ts";

// The harness clock starts at Date.now(); pin it to a known month.
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const OCT = Date.UTC(2026, 9, 31, 23, 59, 0);

function rec(tenantId: number, ts: number, p: Partial<UsageRecord> = {}): UsageRecord {
  return {
    tenantId,
    ts,
    method: "GET",
    path: "/~api/x",
    status: 200,
    bytes: 1000,
    cache: "HIT",
    kind: "api",
    durationMs: 1,
    ...p,
  };
}

/** Records traffic through the bootstrap-wired aggregator and flushes it. */
async function traffic(app: TestApp, records: UsageRecord[]) {
  const agg = app.instance.usageAggregator;
  for (const r of records) agg.record(r);
  await agg.flush();
}

// ---- happy ----

dbTest("GET /api/tenants/{slug}/usage returns current and previous month totals", async (app) => {
  app.clock.set(NOW);
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const id = await tenantIdOf(app, slug);
  await traffic(app, [
    rec(id, NOW, { cache: "HIT", bytes: 300 }),
    rec(id, NOW, { cache: "HIT", bytes: 300 }),
    rec(id, NOW, { cache: "MISS", bytes: 400, status: 502 }),
    rec(id, NOW, { cache: "BYPASS", bytes: 1 }),
    rec(id, OCT, { cache: "MISS", bytes: 50 }),
  ]);
  const r = await owner.get(`/api/tenants/${slug}/usage`);
  assertEquals(r.status, 200);
  assertEquals(r.body.period, "2026-11");
  assertEquals(r.body.current, {
    period: "2026-11",
    from: "2026-11-01",
    to: "2026-12-01",
    requests: 4,
    bytes: 1001,
    hits: 2,
    misses: 1,
    stale: 0,
    bypass: 1,
    errors: 1,
    blocked: 0,
    cacheHitRatio: 0.6667,
    originRequests: 0,
    originBytes: 0,
    statusClasses: { "1xx": 0, "2xx": 3, "3xx": 0, "4xx": 0, "5xx": 1 },
    // each took 1 ms: bucket [1, 1.25), interpolated; none reached the origin
    latency: { edge: { p50Ms: 1.1, p95Ms: 1.2, p99Ms: 1.2 }, origin: null },
  });
  assertEquals(r.body.previous.period, "2026-10");
  assertEquals(r.body.previous.requests, 1);
  assertEquals(r.body.previous.bytes, 50);

  const oct = await owner.get(`/api/tenants/${slug}/usage?period=2026-10`);
  assertEquals(oct.body.current.requests, 1);
  assertEquals(oct.body.previous.period, "2026-09");
  assertEquals(oct.body.previous.requests, 0);
  const jan = await owner.get(`/api/tenants/${slug}/usage?period=2026-01`);
  assertEquals(jan.body.previous.period, "2025-12", "January's previous period is last December");
});

dbTest("GET /api/tenants/usage lists every tenant of the caller with totals", async (app) => {
  app.clock.set(NOW);
  const owner = await signUp(app);
  const a = await createTenant(owner, { slug: "usage-a" });
  const b = await createTenant(owner, { slug: "usage-b" });
  await traffic(app, [
    rec(await tenantIdOf(app, a), NOW, { bytes: 10 }),
    rec(await tenantIdOf(app, b), NOW, { bytes: 20, cache: "MISS" }),
    rec(await tenantIdOf(app, b), NOW, { bytes: 30 }),
    rec(await tenantIdOf(app, b), NOW, { bytes: 0, status: 403, blocked: true }),
  ]);
  const r = await owner.get("/api/tenants/usage");
  assertEquals(r.status, 200);
  assertEquals(r.body.period, "2026-11");
  assertEquals(r.body.total, 2);
  assertEquals(
    r.body.tenants.map((t: { slug: string; role: string; usage: { requests: number } }) => [
      t.slug,
      t.role,
      t.usage.requests,
    ]),
    [["usage-a", "owner", 1], ["usage-b", "owner", 2]],
  );
  assertEquals(r.body.totals.requests, 3);
  assertEquals(r.body.totals.bytes, 60);
  assertEquals(r.body.totals.cacheHitRatio, 0.6667);
  assertEquals(r.body.tenants[1].usage.blocked, 1, "a refused bot is counted per tenant");
  assertEquals(r.body.totals.blocked, 1, "and in the totals");
  const empty = await owner.get("/api/tenants/usage?period=2020-02");
  assertEquals(empty.body.totals.requests, 0);
  assertEquals(empty.body.tenants[0].usage.requests, 0);
});

dbTest("requests through the real edge show up in tenant usage after a flush", async (app) => {
  const upstream = startUpstream();
  try {
    app.clock.set(NOW);
    const owner = await signUp(app);
    const slug = await createTenant(owner, { apiOrigin: upstream.url });
    const anon = new Client(app);
    const first = await anon.get(`http://${slug}.localhost:8000/~api/entries`);
    assertEquals(first.headers.get("x-cachely-cache"), "MISS");
    await anon.get(`http://${slug}.localhost:8000/~api/entries`);
    await anon.get(`http://${slug}.localhost:8000/~api/entries`);
    await app.instance.usageAggregator.flush();
    const r = await owner.get(`/api/tenants/${slug}/usage`);
    assertEquals(r.body.current.requests, 3);
    assertEquals(r.body.current.misses, 1);
    assertEquals(r.body.current.hits, 2);
    assertEquals(r.body.current.bytes, 3 * first.text.length);
  } finally {
    await upstream.close();
  }
});

// ---- errors ----

dbTest("usage endpoints: 400 on a malformed period, 401 without a session", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  for (const p of ["2026-13", "2026-1", "26-01", "2026-00", "latest", "2026-01-01"]) {
    const r = await owner.get(`/api/tenants/${slug}/usage?period=${p}`);
    assertEquals(r.status, 400, p);
    assertEquals(r.body.error.message, "Invalid period: must be YYYY-MM");
    assertEquals((await owner.get(`/api/tenants/usage?period=${p}`)).status, 400, p);
  }
  const anon = new Client(app);
  assertEquals((await anon.get(`/api/tenants/${slug}/usage`)).status, 401);
  assertEquals((await anon.get("/api/tenants/usage")).status, 401);
  assertEquals((await owner.get("/api/tenants/nosuch/usage")).status, 404);
});

// ---- security ----

dbTest("tenant isolation: usage of another tenant is 404 and never listed", async (app) => {
  app.clock.set(NOW);
  const a = await signUp(app);
  const b = await signUp(app);
  const slugA = await createTenant(a);
  const slugB = await createTenant(b);
  await traffic(app, [rec(await tenantIdOf(app, slugA), NOW, { bytes: 999 })]);
  assertEquals((await b.get(`/api/tenants/${slugA}/usage`)).status, 404);
  const listB = await b.get("/api/tenants/usage");
  assertEquals(listB.body.tenants.map((t: { slug: string }) => t.slug), [slugB]);
  assertEquals(listB.body.totals.bytes, 0);
  const own = await b.get(`/api/tenants/${slugB}/usage`);
  assertEquals(own.body.current.bytes, 0);
});

dbTest("a viewer member can read tenant usage", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const viewer = await signUp(app);
  await app.services.dbHandle.exec(
    `INSERT INTO tenant_members (tenant_id, user_id, role)
     VALUES (${await tenantIdOf(app, slug)}, '${viewer.userId}', 'viewer')`,
  );
  assertEquals((await viewer.get(`/api/tenants/${slug}/usage`)).status, 200);
  const list = await viewer.get("/api/tenants/usage");
  assertEquals(list.body.tenants[0].role, "viewer");
});
