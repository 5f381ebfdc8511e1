/**
 * GET /metrics (issue 23): 404 without METRICS_TOKEN, 401 on a wrong token, and counters that
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
