/**
 * One definition of each figure (docs/decisions.md "Usage figures"): the Overview, the
 * Usage page's headline, its per-day series and GET /api/tenants/{slug}/usage show the
 * same cache hit ratio for the same real traffic through the edge.
 */
import { assertEquals } from "./assert.ts";
import { dbTest, tenantIdOf } from "./harness.ts";
import { tenantOnUpstream } from "./edge_traffic.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { usageCharts } from "../lib/dashboard/usage_charts.ts";
import { formatCount, formatPercent } from "../lib/dashboard/format.ts";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

/** The value of the stat card whose label starts with `label` on a dashboard page. */
function statValue(html: string, label: string): string {
  const m = html.match(
    new RegExp(`class="value">([^<]*)</div><div class="label">${label}`),
  );
  if (!m) throw new Error(`no "${label}" stat on the page`);
  return m[1];
}

dbTest(
  "Overview, Usage headline, per-day series and the usage API agree on the hit ratio",
  async (app) => {
    app.clock.set(NOW);
    const up = startUpstream();
    try {
      const { owner, slug, get } = await tenantOnUpstream(app, up);
      // 1 miss + 5 hits, 2 previews (BYPASS), 3 upstream failures: hits/requests would be
      // 5/11, hits/(hits+misses+stale) is 5/(5+1+misses of the failures)
      for (let i = 0; i < 6; i++) assertEquals((await get("/~api/a")).status, 200);
      for (let i = 0; i < 2; i++) await get("/~api/b?preview=1");
      for (let i = 0; i < 3; i++) await get("/~api/fail");
      await app.instance.usageAggregator.flush();

      const api = (await owner.get(`/api/tenants/${slug}/usage`)).body.current;
      assertEquals(api.requests, 11);
      assertEquals(api.hits, 5);
      const expected = api.hits / (api.hits + api.misses + api.stale);
      assertEquals(api.cacheHitRatio, Math.round(expected * 10_000) / 10_000);

      const shown = formatPercent(api.cacheHitRatio);
      const overview = (await owner.get(`/dashboard/${slug}`)).text;
      assertEquals(statValue(overview, "Cache hit ratio"), shown, "Overview");
      const usage = (await owner.get(`/dashboard/${slug}/usage`)).text;
      assertEquals(statValue(usage, "Cache hit ratio"), shown, "Usage headline");
      // saved = requests that never reached the origin, the same on both pages
      const saved = formatCount(api.requests - api.originRequests);
      assertEquals(statValue(overview, "Origin requests saved"), saved, "Overview saved");
      assertEquals(statValue(usage, "Origin requests saved"), saved, "Usage saved");
      const charts = await usageCharts(app.services, await tenantIdOf(app, slug), "2026-11");
      assertEquals(charts.current.hitRatio[21], api.cacheHitRatio, "per-day series, Nov 22");
    } finally {
      await up.close();
    }
  },
);
