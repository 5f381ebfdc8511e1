/**
 * Exact counters: per status class, cache state, day and hour, bytes served,
 * and what reached the origin, from real traffic through the edge.
 */
import { assertEquals } from "./assert.ts";
import { dbTest } from "./harness.ts";
import { tenantOnUpstream } from "./edge_traffic.ts";
import { startUpstream } from "./fakes/upstream.ts";

const NOW = Date.UTC(2026, 10, 22, 12, 30, 0);

dbTest(
  "usage counts status classes, origin requests and bytes, per day and per hour",
  async (app) => {
    app.clock.set(NOW);
    const up = startUpstream();
    up.route("/a", () => Response.json({ pad: "x".repeat(1000) }));
    up.route("/missing", () => Response.json({ no: 1 }, { status: 404 }));
    try {
      const { owner, slug, get } = await tenantOnUpstream(app, up);
      // hour 12: /a once from the origin then 4 hits; 2 upstream 500s (502 to the visitor)
      for (let i = 0; i < 5; i++) assertEquals((await get("/~api/a")).status, 200);
      for (let i = 0; i < 2; i++) assertEquals((await get("/~api/fail")).status, 502);
      // hour 13: a 404 from the origin, then /a again after the TTL (a second origin request)
      app.clock.set(NOW + 3_600_000);
      assertEquals((await get("/~api/missing")).status, 404);
      assertEquals((await get("/~api/a")).status, 200);
      await app.instance.usageAggregator.flush();

      const cur = (await owner.get(`/api/tenants/${slug}/usage`)).body.current;
      assertEquals(cur.requests, 9);
      assertEquals(cur.statusClasses, { "1xx": 0, "2xx": 6, "3xx": 0, "4xx": 1, "5xx": 2 });
      const upstreamRequests = up.seen.length;
      assertEquals(cur.originRequests, upstreamRequests, "every upstream request, once");
      assertEquals(upstreamRequests, 5);
      const bodyBytes = JSON.stringify({ pad: "x".repeat(1000) }).length;
      assertEquals(cur.originBytes, 2 * bodyBytes + "boom".length * 2 + '{"no":1}'.length);
      assertEquals(cur.hits, 4);

      const hourly = await owner.get(`/api/tenants/${slug}/usage-hourly?hours=3`);
      assertEquals(hourly.status, 200);
      assertEquals(hourly.body.points.map((p: { hour: string }) => p.hour), [
        "2026-11-22T11:00:00.000Z",
        "2026-11-22T12:00:00.000Z",
        "2026-11-22T13:00:00.000Z",
      ]);
      const [h11, h12, h13] = hourly.body.points;
      assertEquals([h11.requests, h12.requests, h13.requests], [0, 7, 2]);
      assertEquals([h12.originRequests, h13.originRequests], [3, 2]);
      // the two 502s had no cache decision: 4 hits / (4 + 1 miss)
      assertEquals(h12.cacheHitRatio, 0.8);
      assertEquals(h12.bytes + h13.bytes, cur.bytes, "hours sum to the day");

      const bad = await owner.get(`/api/tenants/${slug}/usage-hourly?hours=0`);
      assertEquals(bad.status, 400);
      assertEquals(bad.body.error.details.fields[0].path, "hours");
    } finally {
      await up.close();
    }
  },
);
