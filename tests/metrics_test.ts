/**
 * GET /metrics: 404 without METRICS_TOKEN, 401 on a wrong token, and counters that
 * equal the requests sent through the edge; never an email or a token.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, dbTest } from "./harness.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { tenantOnUpstream } from "./edge_traffic.ts";

const TOKEN = "metrics-token-0123456789";

dbTest("GET /metrics is 404 while METRICS_TOKEN is unset", async (app) => {
  assertEquals((await new Client(app).get("/metrics")).status, 404);
});

dbTest("GET /metrics: 401 on a wrong token; counters equal the requests sent", async (app) => {
  const up = startUpstream();
  try {
    const { owner, slug, get } = await tenantOnUpstream(app, up);
    for (let i = 0; i < 4; i++) assertEquals((await get("/~api/m")).status, 200);
    for (let i = 0; i < 2; i++) assertEquals((await get("/~api/fail")).status, 502);
    const anon = new Client(app);
    assertEquals((await anon.get("/metrics")).status, 401);
    assertEquals((await anon.get("/metrics", { authorization: "Bearer wrong" })).status, 401);
    const r = await anon.get("/metrics", { authorization: `Bearer ${TOKEN}` });
    assertEquals(r.status, 200);
    assert(r.headers.get("content-type")!.startsWith("text/plain"));
    const value = (series: string) => {
      const line = r.text.split("\n").find((l) => l.startsWith(`${series} `));
      return line === undefined ? 0 : Number(line.slice(series.length + 1));
    };
    const req = (cache: string, cls: string) =>
      value(`cachely_requests_total{tenant="${slug}",cache="${cache}",status_class="${cls}"}`);
    assertEquals(req("MISS", "2xx"), 1);
    assertEquals(req("HIT", "2xx"), 3);
    assertEquals(req("none", "5xx"), 2);
    assertEquals(value(`cachely_origin_requests_total{tenant="${slug}"}`), up.seen.length);
    assertEquals(value("cachely_request_duration_seconds_count"), 6);
    assertEquals(value("cachely_origin_duration_seconds_count"), 3);
    assert(value("cachely_edge_cache_entries") >= 1);
    assert(!r.text.includes(owner.email) && !r.text.includes(TOKEN), "no emails or tokens");
  } finally {
    await up.close();
  }
}, { env: { METRICS_TOKEN: TOKEN } });

dbTest(
  "GET /metrics: snapshot age, projector lag, KV and database errors; a background refresh is no request",
  async (app) => {
    const up = startUpstream();
    try {
      const { slug, get } = await tenantOnUpstream(app, up);
      assertEquals((await get("/~api/m")).status, 200);
      app.clock.advance(90_000); // the snapshot was read from KV 90 s ago (ManualClock)
      const anon = new Client(app);
      const scrape = async () => {
        const r = await anon.get("/metrics", { authorization: `Bearer ${TOKEN}` });
        assertEquals(r.status, 200);
        return (series: string) => {
          const line = r.text.split("\n").find((l) => l.startsWith(`${series} `));
          return line === undefined ? undefined : Number(line.slice(series.length + 1));
        };
      };
      let value = await scrape();
      assert(value("cachely_edge_snapshot_age_seconds")! >= 90, "the snapshot's age");
      assertEquals(value("cachely_projector_tenants_behind"), 0);
      assertEquals(typeof value("cachely_projector_success_age_seconds"), "number");
      assertEquals(value(`cachely_kv_errors_total{op="read"}`), 0);
      const before = value(`cachely_database_errors_total{where="request"}`)!;
      assertEquals(typeof before, "number");

      // A KV read that fails (the snapshot expired, KV closed under it) is counted.
      const kv = app.services.kv;
      const get0 = kv.get.bind(kv);
      kv.get = (() => Promise.reject(new Error("kv down"))) as typeof kv.get;
      try {
        await get("/~api/m"); // served stale (within the bound) or refused: either way counted
        await new Promise((r) => setTimeout(r, 20));
      } finally {
        kv.get = get0;
      }
      value = await scrape();
      assert(value(`cachely_kv_errors_total{op="read"}`)! >= 1, "the failed KV read");

      // A background refresh (status 0) adds an origin request, never a request.
      app.instance.requestCounters.record({
        tenantId: (await app.services.dbHandle.query<{ id: number }>(
          `SELECT id FROM tenants WHERE slug = '${slug}'`,
        ))[0].id,
        ts: app.clock.now(),
        method: "GET",
        path: "/~api/m",
        status: 0,
        bytes: 0,
        cache: null,
        kind: "api",
        durationMs: 0,
        background: true,
        originRequests: 1,
        originBytes: 5,
        originMs: 3,
      });
      value = await scrape();
      assertEquals(
        value(`cachely_requests_total{tenant="${slug}",cache="none",status_class="1xx"}`),
        undefined,
      );
    } finally {
      await up.close();
    }
  },
  { env: { METRICS_TOKEN: TOKEN } },
);
