import { assertEquals } from "./assert.ts";
import { Client, createTenant, dbTest, signUp, tenantIdOf } from "./harness.ts";
import { seedUsageDays } from "./fakes/usage_rows.ts";
import type { TestApp } from "./harness.ts";
import { memberWithRole } from "./roles.ts";
import { PATH_ROWS_PER_DAY, writePaths } from "../lib/usage/pg_paths.ts";
import { pathCounts } from "../lib/db/schema/mod.ts";
import { and, eq } from "drizzle-orm";

// The harness clock starts at Date.now(); pin it so "today" is 2026-11-22 (UTC).
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

type Log = {
  ts: string;
  path: string;
  status?: number;
  bytes?: number;
  cache?: string | null;
  kind?: string | null;
  method?: string;
  durationMs?: number;
  experimentId?: number;
  variantId?: number;
};

const lit = (v: string | number | null | undefined) =>
  v === null || v === undefined ? "NULL" : typeof v === "number" ? String(v) : `'${v}'`;

/** Inserts logs in the given order (ids follow it: tables restart identity per test). */
async function seedLogs(app: TestApp, tenantId: number, logs: Log[]) {
  for (const l of logs) {
    await app.services.dbHandle.exec(
      `INSERT INTO request_logs (tenant_id, ts, method, path, status, bytes, cache, duration_ms,
         kind, experiment_id, variant_id)
       VALUES (${tenantId}, '${l.ts}', ${lit(l.method ?? "GET")}, ${lit(l.path)},
         ${l.status ?? 200}, ${l.bytes ?? 0}, ${lit(l.cache === undefined ? "HIT" : l.cache)},
         ${lit(l.durationMs ?? 5)}, ${lit(l.kind === undefined ? "api" : l.kind)},
         ${lit(l.experimentId)}, ${lit(l.variantId)})`,
    );
  }
}

async function aiDay(app: TestApp, tenantId: number, day: string, i: number, o: number, c: number) {
  await app.services.dbHandle.exec(
    `INSERT INTO ai_usage_daily (tenant_id, day, input_tokens, output_tokens, model_calls)
     VALUES (${tenantId}, '${day}', ${i}, ${o}, ${c})`,
  );
}

/** Two tenants of two owners, with usage on both sides of the November 2026 boundaries. */
async function twoTenants(app: TestApp) {
  app.clock.set(NOW);
  const owner = await signUp(app);
  const other = await signUp(app);
  const slug = await createTenant(owner, { slug: "stats-a" });
  const otherSlug = await createTenant(other, { slug: "stats-b" });
  const a = await tenantIdOf(app, slug);
  const b = await tenantIdOf(app, otherSlug);
  await seedUsageDays(app, a, [
    { day: "2026-10-31", requests: 7, bytes: 700, hits: 7, errors: 2 },
    {
      day: "2026-11-01",
      requests: 10,
      bytes: 1000,
      hits: 6,
      misses: 2,
      stale: 1,
      bypass: 1,
      errors: 1,
    },
    { day: "2026-11-30", requests: 5, bytes: 500, hits: 3, misses: 1, bypass: 1 },
    { day: "2026-12-01", requests: 100, bytes: 10_000, hits: 100 },
  ]);
  await seedUsageDays(app, b, [{ day: "2026-11-15", requests: 999, bytes: 99_999, hits: 999 }]);
  return { owner, other, slug, otherSlug, a, b };
}

// ---- analytics ----

dbTest(
  "GET analytics: exact totals, previous month, AI usage and sampled breakdowns",
  async (app) => {
    const { owner, other, slug, otherSlug, a, b } = await twoTenants(app);
    await aiDay(app, a, "2026-11-05", 100, 50, 3);
    await aiDay(app, a, "2026-10-31", 1000, 1000, 10);
    await aiDay(app, b, "2026-11-05", 9, 9, 9);
    await seedLogs(app, a, [
      { ts: "2026-10-31T23:59:59.999Z", path: "/~api/old", bytes: 1 },
      { ts: "2026-11-01T00:00:00Z", path: "/~api/a", bytes: 100 },
      { ts: "2026-11-10T10:00:00Z", path: "/~api/a", bytes: 100 },
      { ts: "2026-11-10T11:00:00Z", path: "/~api/a", status: 404, bytes: 10, cache: "MISS" },
      { ts: "2026-11-12T00:00:00Z", path: "/~assets/x.png", bytes: 5000, kind: "asset" },
      { ts: "2026-11-30T23:59:59.999Z", path: "/~api/b", status: 502, cache: null, kind: null },
      { ts: "2026-12-01T00:00:00Z", path: "/~api/next", bytes: 3 },
    ]);
    await seedLogs(app, b, [{ ts: "2026-11-10T10:00:00Z", path: "/~api/secret", bytes: 77 }]);

    const r = await owner.get(`/api/tenants/${slug}/analytics`);
    assertEquals(r.status, 200);
    assertEquals(r.body.period, "2026-11", "defaults to the current UTC month");
    assertEquals(r.body.from, "2026-11-01");
    assertEquals(r.body.to, "2026-12-01");
    assertEquals(r.body.totals, {
      requests: 15,
      bytes: 1500,
      hits: 9,
      misses: 3,
      stale: 1,
      bypass: 2,
      errors: 1,
      blocked: 0,
      cacheHitRatio: 0.6923,
      errorRate: 0.0667,
      originRequests: 0,
      originBytes: 0,
      statusClasses: { "1xx": 0, "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0 },
    });
    assertEquals(r.body.previous, {
      period: "2026-10",
      from: "2026-10-01",
      to: "2026-11-01",
      requests: 7,
      bytes: 700,
      hits: 7,
      misses: 0,
      stale: 0,
      bypass: 0,
      errors: 2,
      blocked: 0,
      cacheHitRatio: 1,
      errorRate: 0.2857,
      originRequests: 0,
      originBytes: 0,
      statusClasses: { "1xx": 0, "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0 },
    });
    assertEquals(r.body.ai, {
      inputTokens: 100,
      outputTokens: 50,
      totalTokens: 150,
      modelCalls: 3,
    });
    assertEquals(r.body.sampled.logs, 5, "the Oct 31 and Dec 1 logs are outside the period");
    assertEquals(typeof r.body.sampled.note, "string");
    assertEquals(r.body.sampled.byKind, [
      { kind: "api", requests: 3, bytes: 210 },
      { kind: "asset", requests: 1, bytes: 5000 },
      { kind: "other", requests: 1, bytes: 0 },
    ]);
    assertEquals(r.body.sampled.statusClasses, {
      "1xx": 0,
      "2xx": 3,
      "3xx": 0,
      "4xx": 1,
      "5xx": 1,
    });
    assertEquals(r.body.sampled.topPaths, [
      { path: "/~api/a", requests: 3, estimatedRequests: 201, bytes: 210 },
      { path: "/~assets/x.png", requests: 1, estimatedRequests: 100, bytes: 5000 },
      { path: "/~api/b", requests: 1, estimatedRequests: 1, bytes: 0 },
    ]);

    // Another month, and the other tenant sees only its own data.
    const oct = await owner.get(`/api/tenants/${slug}/analytics?period=2026-10`);
    assertEquals(oct.status, 200);
    assertEquals([oct.body.period, oct.body.totals.requests, oct.body.totals.errorRate], [
      "2026-10",
      7,
      0.2857,
    ]);
    assertEquals([oct.body.previous.period, oct.body.previous.requests], ["2026-09", 0]);
    assertEquals(oct.body.previous.errorRate, 0, "no traffic is a 0 error rate, not NaN");
    assertEquals(oct.body.ai.totalTokens, 2000);
    assertEquals(oct.body.sampled.topPaths, [{
      path: "/~api/old",
      requests: 1,
      estimatedRequests: 100,
      bytes: 1,
    }]);

    const otherView = await other.get(`/api/tenants/${otherSlug}/analytics`);
    assertEquals(otherView.body.totals.requests, 999);
    assertEquals(otherView.body.previous.requests, 0);
    assertEquals(otherView.body.ai.modelCalls, 9);
    assertEquals(otherView.body.sampled.logs, 1);
    assertEquals(otherView.body.sampled.topPaths, [
      { path: "/~api/secret", requests: 1, estimatedRequests: 100, bytes: 77 },
    ]);

    const empty = await owner.get(`/api/tenants/${slug}/analytics?period=2020-02`);
    assertEquals(empty.body.totals.requests, 0);
    assertEquals(empty.body.sampled, {
      logs: 0,
      note: r.body.sampled.note,
      byKind: [],
      statusClasses: { "1xx": 0, "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0 },
      topPaths: [],
    });
  },
);

dbTest("GET analytics: topPaths keeps the 10 busiest paths", async (app) => {
  app.clock.set(NOW);
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const id = await tenantIdOf(app, slug);
  const logs: Log[] = [];
  // /p1 gets 12 logs, /p2 11, … /p12 1.
  for (let p = 1; p <= 12; p++) {
    for (let n = 0; n < 13 - p; n++) logs.push({ ts: "2026-11-02T00:00:00Z", path: `/p${p}` });
  }
  await seedLogs(app, id, logs);
  const r = await owner.get(`/api/tenants/${slug}/analytics`);
  assertEquals(r.body.sampled.logs, 78);
  assertEquals(
    r.body.sampled.topPaths.map((t: { path: string; requests: number }) => [t.path, t.requests]),
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((p) => [`/p${p}`, 13 - p]),
  );
});

dbTest(
  "GET analytics: topPaths ranks by requests estimated from the sample, not by logs kept",
  async (app) => {
    app.clock.set(NOW);
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const id = await tenantIdOf(app, slug);
    // At the default 1 % sample, 11 successes logged stand for about 1,100 requests; every
    // error is logged, so 20 error logs are 20 requests.
    const logs: Log[] = [];
    for (let i = 0; i < 11; i++) logs.push({ ts: "2026-11-02T00:00:00Z", path: "/busy" });
    for (let i = 0; i < 20; i++) {
      logs.push({ ts: "2026-11-02T00:00:00Z", path: "/broken", status: 502 });
    }
    logs.push({ ts: "2026-11-02T00:00:00Z", path: "/busy", status: 404 });
    await seedLogs(app, id, logs);
    await seedUsageDays(app, id, [{ day: "2026-11-02", requests: 1121, bytes: 0, errors: 21 }]);
    const r = await owner.get(`/api/tenants/${slug}/analytics`);
    assertEquals(
      r.body.sampled.topPaths.map((
        t: { path: string; requests: number; estimatedRequests: number },
      ) => [t.path, t.requests, t.estimatedRequests]),
      [["/busy", 12, 1101], ["/broken", 20, 20]],
    );
  },
);

dbTest(
  "GET analytics: topPaths ranks by exact per-path counters; the page shows them",
  async (app) => {
    app.clock.set(NOW);
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const id = await tenantIdOf(app, slug);
    // The sample kept more logs of the erroring path than of the busy one.
    const logs: Log[] = [{ ts: "2026-11-02T00:00:00Z", path: "/busy" }];
    for (let i = 0; i < 5; i++) {
      logs.push({ ts: "2026-11-02T00:00:00Z", path: "/broken", status: 502 });
    }
    await seedLogs(app, id, logs);
    await app.services.db.transaction((tx) =>
      writePaths(tx, [
        { tenantId: id, day: "2026-11-02", path: "/busy", requests: 1000, errors: 0, bytes: 10 },
        { tenantId: id, day: "2026-11-02", path: "/broken", requests: 5, errors: 5, bytes: 0 },
        { tenantId: id, day: "2026-11-03", path: "/busy", requests: 80, errors: 0, bytes: 1 },
        { tenantId: id, day: "2026-10-31", path: "/october", requests: 9000, errors: 0, bytes: 0 },
      ])
    );
    await seedUsageDays(app, id, [{ day: "2026-11-02", requests: 1085, bytes: 11, errors: 5 }]);
    const r = await owner.get(`/api/tenants/${slug}/analytics`);
    assertEquals(r.status, 200, r.text);
    assertEquals(r.body.topPaths, [
      { path: "/busy", requests: 1080, errors: 0, bytes: 11, overcount: 0 },
      { path: "/broken", requests: 5, errors: 5, bytes: 0, overcount: 0 },
    ]);
    const page = await owner.get(`/dashboard/${slug}/usage`);
    assertEquals(page.status, 200, page.text.slice(0, 500));
    const table = page.text.match(/aria-label="Top paths"[\s\S]*?<\/table>/)![0];
    const paths = [...table.matchAll(/<tr data-path="([^"]+)"/g)].map((m) => m[1]);
    assertEquals(paths, ["/busy", "/broken"]);
  },
);

dbTest(
  "path_counts keeps a day's 1,000 busiest paths; a newcomer to a full day enters at its floor",
  async (app) => {
    app.clock.set(NOW);
    const owner = await signUp(app);
    const id = await tenantIdOf(app, await createTenant(owner));
    await app.services.dbHandle.exec(
      `INSERT INTO path_counts (tenant_id, day, path, requests)
     SELECT ${id}, '2026-11-02', '/p' || g, 2 + (g % 3) FROM generate_series(1, ${PATH_ROWS_PER_DAY}) g`,
    );
    const day = (path: string, requests: number) => ({
      tenantId: id,
      day: "2026-11-02",
      path,
      requests,
      errors: 0,
      bytes: 0,
    });
    // The floor is 2: the newcomer counts 2 + 1 with overcount 2; one row at 2 is evicted.
    await app.services.db.transaction((tx) => writePaths(tx, [day("/new", 1)]));
    const rows = await app.services.db.select().from(pathCounts).where(eq(pathCounts.tenantId, id));
    assertEquals(rows.length, PATH_ROWS_PER_DAY);
    const fresh = rows.find((r) => r.path === "/new")!;
    assertEquals([fresh.requests, fresh.overcount], [3, 2]);
    // Counted again, it adds its own requests only.
    await app.services.db.transaction((tx) => writePaths(tx, [day("/new", 4)]));
    const [again] = await app.services.db.select().from(pathCounts)
      .where(and(eq(pathCounts.tenantId, id), eq(pathCounts.path, "/new")));
    assertEquals([again.requests, again.overcount], [7, 2]);
  },
);

// ---- bandwidth-daily ----

type Point = { day: string; bytes: number; requests: number };
const nonZero = (points: Point[]) => points.filter((p) => p.requests > 0 || p.bytes > 0);

dbTest(
  "GET bandwidth-daily: a zero-filled point per day, default the last 30 days",
  async (app) => {
    const { owner, other, slug, otherSlug } = await twoTenants(app);
    const r = await owner.get(`/api/tenants/${slug}/bandwidth-daily`);
    assertEquals(r.status, 200);
    assertEquals([r.body.from, r.body.to], ["2026-10-24", "2026-11-22"]);
    assertEquals(r.body.points.length, 30);
    assertEquals(r.body.points[0], { day: "2026-10-24", bytes: 0, requests: 0 });
    assertEquals(r.body.points[29], { day: "2026-11-22", bytes: 0, requests: 0 });
    assertEquals(nonZero(r.body.points), [
      { day: "2026-10-31", bytes: 700, requests: 7 },
      { day: "2026-11-01", bytes: 1000, requests: 10 },
    ]);
    assertEquals(
      r.body.points.find((p: Point) => p.day === "2026-11-15"),
      { day: "2026-11-15", bytes: 0, requests: 0 },
      "the other tenant's day never shows",
    );
    assertEquals(r.body.totals, { bytes: 1700, requests: 17 });

    const explicit = await owner.get(
      `/api/tenants/${slug}/bandwidth-daily?from=2026-10-31&to=2026-11-02`,
    );
    assertEquals(explicit.body, {
      from: "2026-10-31",
      to: "2026-11-02",
      points: [
        { day: "2026-10-31", bytes: 700, requests: 7 },
        { day: "2026-11-01", bytes: 1000, requests: 10 },
        { day: "2026-11-02", bytes: 0, requests: 0 },
      ],
      totals: { bytes: 1700, requests: 17 },
    });

    const oneDay = await owner.get(
      `/api/tenants/${slug}/bandwidth-daily?from=2026-12-01&to=2026-12-01`,
    );
    assertEquals(oneDay.body.points, [{ day: "2026-12-01", bytes: 10_000, requests: 100 }]);

    // One bound anchors the other: `from` alone runs 30 days but never past today…
    const fromOnly = await owner.get(`/api/tenants/${slug}/bandwidth-daily?from=2026-11-20`);
    assertEquals([fromOnly.body.from, fromOnly.body.to, fromOnly.body.points.length], [
      "2026-11-20",
      "2026-11-22",
      3,
    ]);
    const fromLongAgo = await owner.get(`/api/tenants/${slug}/bandwidth-daily?from=2026-01-01`);
    assertEquals([fromLongAgo.body.from, fromLongAgo.body.to], ["2026-01-01", "2026-01-30"]);
    // …and `to` alone gives the 30 days ending on it.
    const toOnly = await owner.get(`/api/tenants/${slug}/bandwidth-daily?to=2026-11-30`);
    assertEquals([toOnly.body.from, toOnly.body.to], ["2026-11-01", "2026-11-30"]);
    assertEquals(toOnly.body.totals, { bytes: 1500, requests: 15 });

    const leap = await owner.get(
      `/api/tenants/${slug}/bandwidth-daily?from=2024-02-28&to=2024-03-01`,
    );
    assertEquals(leap.body.points.map((p: Point) => p.day), [
      "2024-02-28",
      "2024-02-29",
      "2024-03-01",
    ]);

    const longest = await owner.get(
      `/api/tenants/${slug}/bandwidth-daily?from=2025-11-22&to=2026-11-22`,
    );
    assertEquals(longest.status, 200, "366 days is the largest range");
    assertEquals(longest.body.points.length, 366);

    const theirs = await other.get(`/api/tenants/${otherSlug}/bandwidth-daily`);
    assertEquals(nonZero(theirs.body.points), [{
      day: "2026-11-15",
      bytes: 99_999,
      requests: 999,
    }]);
  },
);

// ---- logs ----

dbTest("GET logs: newest first by time, keyset pages with beforeId, full entries", async (app) => {
  const { owner, slug, a, b } = await twoTenants(app);
  await seedLogs(app, a, [
    { ts: "2026-11-20T10:00:01Z", path: "/~api/1" }, // id 1
    { ts: "2026-11-20T10:00:02Z", path: "/~api/2" }, // id 2
    { ts: "2026-11-20T10:00:04Z", path: "/~api/4" }, // id 3
    { ts: "2026-11-20T10:00:05Z", path: "/~api/5" }, // id 4
    // A late flush: older than ids 3 and 4, still listed by time.
    {
      ts: "2026-11-20T10:00:03.250Z",
      path: "/~api/3",
      method: "HEAD",
      status: 304,
      bytes: 12,
      cache: "STALE",
      durationMs: 42,
      experimentId: 7,
      variantId: 8,
    }, // id 5
  ]);
  await seedLogs(app, b, [{ ts: "2026-11-20T10:00:06Z", path: "/~api/theirs" }]); // id 6

  const all = await owner.get(`/api/tenants/${slug}/logs`);
  assertEquals(all.status, 200);
  assertEquals(all.body.entries.map((e: { id: number }) => e.id), [4, 3, 5, 2, 1]);
  assertEquals([all.body.hasMore, all.body.nextBeforeId], [false, null]);
  assertEquals(all.body.entries[2], {
    id: 5,
    ts: "2026-11-20T10:00:03.250Z",
    method: "HEAD",
    path: "/~api/3",
    status: 304,
    bytes: 12,
    cache: "STALE",
    durationMs: 42,
    kind: "api",
    experimentId: 7,
    variantId: 8,
    originStatus: null,
  });

  const p1 = await owner.get(`/api/tenants/${slug}/logs?limit=2`);
  assertEquals(p1.body.entries.map((e: { id: number }) => e.id), [4, 3]);
  assertEquals([p1.body.hasMore, p1.body.nextBeforeId], [true, 3]);
  const p2 = await owner.get(`/api/tenants/${slug}/logs?limit=2&beforeId=3`);
  assertEquals(p2.body.entries.map((e: { id: number }) => e.id), [5, 2]);
  assertEquals([p2.body.hasMore, p2.body.nextBeforeId], [true, 2]);
  const p3 = await owner.get(`/api/tenants/${slug}/logs?limit=2&beforeId=2`);
  assertEquals(p3.body.entries.map((e: { id: number }) => e.id), [1]);
  assertEquals([p3.body.hasMore, p3.body.nextBeforeId], [false, null]);
  const exact = await owner.get(`/api/tenants/${slug}/logs?limit=5`);
  assertEquals([exact.body.entries.length, exact.body.hasMore], [5, false]);

  const cross = await owner.get(`/api/tenants/${slug}/logs?beforeId=6`);
  assertEquals(cross.body.entries, [], "another tenant's id is no cursor here");
  const unknown = await owner.get(`/api/tenants/${slug}/logs?beforeId=999`);
  assertEquals(unknown.body.entries, []);
});

dbTest("GET logs: status, cache, kind, path and time filters", async (app) => {
  const { owner, slug, a, b } = await twoTenants(app);
  await seedLogs(app, a, [
    { ts: "2026-11-20T10:00:00Z", path: "/~api/posts", status: 200, cache: "HIT" }, // 1
    { ts: "2026-11-20T11:00:00Z", path: "/~api/posts/1", status: 404, cache: "MISS" }, // 2
    { ts: "2026-11-20T12:00:00Z", path: "/~api/postscript", status: 410, cache: "MISS" }, // 3
    { ts: "2026-11-20T13:00:00Z", path: "/~assets/a.png", status: 200, kind: "asset" }, // 4
    { ts: "2026-11-20T14:00:00Z", path: "/~api/x", status: 502, cache: null, kind: null }, // 5
    { ts: "2026-11-21T00:00:00Z", path: "/~api/a%b", status: 503, cache: "STALE" }, // 6
    { ts: "2026-11-21T01:00:00Z", path: "/about", status: 301, cache: "BYPASS", kind: "site" }, // 7
  ]);
  await seedLogs(app, b, [{ ts: "2026-11-20T10:30:00Z", path: "/~api/posts", status: 404 }]);
  const ids = async (query: string) => {
    const r = await owner.get(`/api/tenants/${slug}/logs?${query}`);
    assertEquals(r.status, 200, query);
    return r.body.entries.map((e: { id: number }) => e.id);
  };
  assertEquals(await ids("status=404"), [2]);
  assertEquals(await ids("status=4xx"), [3, 2]);
  assertEquals(await ids("status=5XX"), [6, 5]);
  assertEquals(await ids("status=2xx"), [4, 1]);
  assertEquals(await ids("status=100"), []);
  assertEquals(await ids("cache=MISS"), [3, 2]);
  assertEquals(await ids("cache=stale"), [6]);
  assertEquals(await ids("cache=BYPASS"), [7]);
  assertEquals(await ids("kind=asset"), [4]);
  assertEquals(await ids("kind=site"), [7]);
  assertEquals(await ids("kind=api"), [6, 3, 2, 1]);
  assertEquals(await ids("path=/~api/posts"), [3, 2, 1], "a plain prefix, like the UI search");
  assertEquals(await ids("path=/~api/posts/"), [2]);
  assertEquals(await ids(`path=${encodeURIComponent("/~api/a%")}`), [6], "% is literal");
  assertEquals(await ids(`path=${encodeURIComponent("/~api/_")}`), [], "_ is literal");
  assertEquals(await ids("path=/~assets/"), [4]);
  assertEquals(await ids("from=2026-11-21"), [7, 6], "a bare date is UTC midnight");
  assertEquals(await ids("to=2026-11-20T12:00:00Z"), [2, 1], "to is exclusive");
  assertEquals(
    await ids(
      `from=${encodeURIComponent("2026-11-20T12:00:00+01:00")}&to=2026-11-20T14:00:00.000Z`,
    ),
    [4, 3, 2],
    "offsets are honoured",
  );
  assertEquals(await ids("from=2026-11-20T12:00:00Z&to=2026-11-20T12:00:00Z"), []);
  assertEquals(await ids("status=4xx&cache=MISS&path=/~api/posts/&kind=api"), [2]);
  // Filters hold across pages.
  const p1 = await owner.get(`/api/tenants/${slug}/logs?status=4xx&limit=1`);
  assertEquals([p1.body.entries[0].id, p1.body.hasMore, p1.body.nextBeforeId], [3, true, 3]);
  assertEquals(await ids("status=4xx&limit=1&beforeId=3"), [2]);
});

// ---- errors and access ----

async function assert400(c: Client, path: string, message: string, field: string) {
  const r = await c.get(path);
  assertEquals(r.status, 400, path);
  assertEquals(r.body.error.code, "bad_request", path);
  assertEquals(r.body.error.message, message, path);
  assertEquals(r.body.error.details.fields[0].path, field, path);
}

dbTest("analytics endpoints: 400 naming the bad field", async (app) => {
  app.clock.set(NOW);
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const base = `/api/tenants/${slug}`;
  for (const p of ["2026-13", "2026-1", "26-01", "2026-00", "latest", "2026-01-01", ""]) {
    await assert400(
      owner,
      `${base}/analytics?period=${p}`,
      "Invalid period: must be YYYY-MM",
      "period",
    );
  }

  const badDay = "must be a date YYYY-MM-DD";
  for (const d of ["2026-02-30", "2026-1-01", "20261101", "today", "2026-11-01T00:00:00Z"]) {
    await assert400(owner, `${base}/bandwidth-daily?from=${d}`, `Invalid from: ${badDay}`, "from");
    await assert400(owner, `${base}/bandwidth-daily?to=${d}`, `Invalid to: ${badDay}`, "to");
  }
  await assert400(
    owner,
    `${base}/bandwidth-daily?from=2026-11-02&to=2026-11-01`,
    "Invalid range: from must not be after to",
    "from",
  );
  await assert400(
    owner,
    `${base}/bandwidth-daily?from=2030-01-01`,
    "Invalid range: from must not be after to",
    "from",
  );
  await assert400(
    owner,
    `${base}/bandwidth-daily?from=2025-11-21&to=2026-11-22`,
    "Invalid range: spans 367 days, at most 366 allowed",
    "to",
  );

  const logs = `${base}/logs`;
  for (const l of ["0", "201", "abc", "-1", "1.5"]) {
    const msg = l === "0"
      ? "must be at least 1"
      : l === "201"
      ? "must be at most 200"
      : "must be an integer from 1 to 200";
    await assert400(owner, `${logs}?limit=${l}`, `Invalid limit: ${msg}`, "limit");
  }
  for (const id of ["0", "-1", "abc", "99999999999999999"]) {
    await assert400(
      owner,
      `${logs}?beforeId=${id}`,
      "Invalid beforeId: must be a positive integer",
      "beforeId",
    );
  }
  for (const st of ["600", "99", "2x", "abc", "4xxx", "20", "0xx"]) {
    await assert400(
      owner,
      `${logs}?status=${st}`,
      "Invalid status: must be a status code like 404 or a class like 4xx",
      "status",
    );
  }
  await assert400(
    owner,
    `${logs}?cache=FOO`,
    "Invalid cache: must be HIT, MISS, STALE or BYPASS",
    "cache",
  );
  await assert400(
    owner,
    `${logs}?kind=image`,
    "Invalid kind: must be api, asset, site or other",
    "kind",
  );
  await assert400(owner, `${logs}?path=api`, "Invalid path: must start with /", "path");
  const tsMsg = "must be an ISO 8601 date or date-time with a zone";
  for (
    const t of ["yesterday", "2026-11-01T10:00", "2026-11-01T10:00:00", "2026-13-01", "1700000000"]
  ) {
    await assert400(owner, `${logs}?from=${t}`, `Invalid from: ${tsMsg}`, "from");
    await assert400(owner, `${logs}?to=${t}`, `Invalid to: ${tsMsg}`, "to");
  }
  await assert400(
    owner,
    `${logs}?from=2026-11-02&to=2026-11-01T23:59:59Z`,
    "Invalid range: from must not be after to",
    "from",
  );
});

dbTest(
  "analytics endpoints: any member 200, anonymous 401, non-member and unknown 404",
  async (app) => {
    app.clock.set(NOW);
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const viewer = await memberWithRole(app, owner, slug, "viewer");
    const outsider = await signUp(app);
    await createTenant(outsider, { slug: "outsider-own" });
    const anon = new Client(app);
    for (const ep of ["analytics", "bandwidth-daily", "logs"]) {
      const path = `/api/tenants/${slug}/${ep}`;
      assertEquals((await owner.get(path)).status, 200, ep);
      assertEquals((await viewer.get(path)).status, 200, `${ep}: viewer is enough`);
      const a = await anon.get(path);
      assertEquals(a.status, 401, ep);
      assertEquals(a.body.error.code, "unauthorized", ep);
      const o = await outsider.get(path);
      assertEquals(o.status, 404, ep);
      assertEquals(o.body.error.code, "not_found", ep);
      // A non-member's bad query is still 404: nothing about the tenant leaks.
      assertEquals((await outsider.get(`${path}?period=x&from=x&limit=0`)).status, 404, ep);
      assertEquals((await owner.get(`/api/tenants/nosuch/${ep}`)).status, 404, ep);
    }
  },
);

dbTest(
  "records flushed by the usage aggregator show up in analytics, bandwidth and logs",
  async (app) => {
    app.clock.set(NOW);
    const owner = await signUp(app);
    const slug = await createTenant(owner);
    const id = await tenantIdOf(app, slug);
    const agg = app.instance.usageAggregator;
    const at = Date.UTC(2026, 10, 21, 8, 30, 15, 123);
    agg.record({
      tenantId: id,
      ts: at,
      method: "GET",
      path: "/~api/entries",
      status: 200,
      bytes: 640,
      cache: "MISS",
      kind: "api",
      durationMs: 12,
    });
    await agg.flush();

    const logs = await owner.get(`/api/tenants/${slug}/logs`);
    assertEquals(logs.body.entries, [{
      id: 1,
      ts: "2026-11-21T08:30:15.123Z",
      method: "GET",
      path: "/~api/entries",
      status: 200,
      bytes: 640,
      cache: "MISS",
      durationMs: 12,
      kind: "api",
      experimentId: null,
      variantId: null,
      originStatus: null,
    }]);
    const a = await owner.get(`/api/tenants/${slug}/analytics`);
    assertEquals([a.body.totals.requests, a.body.totals.misses, a.body.totals.bytes], [1, 1, 640]);
    assertEquals(a.body.sampled.topPaths, [{
      path: "/~api/entries",
      requests: 1,
      estimatedRequests: 1,
      bytes: 640,
    }]);
    const bw = await owner.get(
      `/api/tenants/${slug}/bandwidth-daily?from=2026-11-21&to=2026-11-22`,
    );
    assertEquals(bw.body.points, [
      { day: "2026-11-21", bytes: 640, requests: 1 },
      { day: "2026-11-22", bytes: 0, requests: 0 },
    ]);
  },
  { env: { REQUEST_LOG_SAMPLE_RATE: "1" } },
);
