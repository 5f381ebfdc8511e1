/**
 * Request logs keep every error: at a 0 % sample rate, 4xx, 5xx and upstream
 * failures from real traffic are all listed, successes none; the Logs page states the
 * rate and filters by path prefix, status, cache state and time.
 */
import { assert, assertEquals } from "./assert.ts";
import { dbTest } from "./harness.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { tenantOnUpstream } from "./edge_traffic.ts";

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

dbTest(
  "every error is logged at REQUEST_LOG_SAMPLE_RATE=0; the page states the rate and filters",
  async (app) => {
    app.clock.set(NOW);
    const up = startUpstream();
    up.route("/gone", () => Response.json({ no: 1 }, { status: 404 }));
    try {
      const { owner, slug, get } = await tenantOnUpstream(app, up);
      for (let i = 0; i < 20; i++) assertEquals((await get(`/~api/ok${i % 2}`)).status, 200);
      for (let i = 0; i < 3; i++) assertEquals((await get("/~api/fail")).status, 502);
      app.clock.advance(120_000);
      assertEquals((await get("/~api/gone")).status, 404);
      await app.instance.usageAggregator.flush();

      const logs = (await owner.get(`/api/tenants/${slug}/logs`)).body.entries;
      assertEquals(
        logs.map((e: { path: string; status: number }) => `${e.status} ${e.path}`),
        ["404 /~api/gone", "502 /~api/fail", "502 /~api/fail", "502 /~api/fail"],
      );
      // the origin's own status beside the edge's: its 500 reached the visitor as a 502
      assertEquals(
        logs.map((e: { originStatus: number | null }) => e.originStatus),
        [404, 500, 500, 500],
      );

      const page = (await owner.get(`/dashboard/${slug}/logs`)).text;
      assert(page.includes('data-log-rate="0"'), "the page states the rate");
      assert(page.includes("<strong>0 %</strong>"), "as a percentage");
      const fails = (await owner.get(`/dashboard/${slug}/logs?path=/~api/f&status=5xx`)).text;
      assertEquals(fails.match(/<code>\/~api\/fail<\/code>/g)?.length, 3);
      assertEquals(fails.match(/data-origin-status="500"/g)?.length, 3, "the origin's 500 shown");
      // apart from the status badge, not run into it ("502origin 500")
      assertEquals(fails.match(/<\/span> <span class="muted" data-origin-status/g)?.length, 3);
      assert(!fails.includes("/~api/gone"));
      const byCode = (await owner.get(`/dashboard/${slug}/logs?status=404`)).text;
      assert(byCode.includes("/~api/gone") && !byCode.includes("<code>/~api/fail"));
      const since = new Date(NOW + 60_000).toISOString().slice(0, 16); // datetime-local, UTC
      const late = (await owner.get(`/dashboard/${slug}/logs?from=${since}`)).text;
      assert(late.includes("/~api/gone") && !late.includes("<code>/~api/fail"), "from filters");
    } finally {
      await up.close();
    }
  },
  { env: { REQUEST_LOG_SAMPLE_RATE: "0" } },
);
