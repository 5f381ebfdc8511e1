/**
 * GET /api/admin/usage-aggregator-status (master admin): the usage aggregator's and
 * threshold gate's in-memory counters for this instance (SPEC "Master-admin endpoints").
 */
import { access, Routes } from "../../lib/http/route.ts";
import { aggregatorStatusResponseSchema } from "../../lib/usage/aggregator_schema.ts";

export function adminUsageRoutes(): Routes {
  const app = new Routes("");
  app.get("/admin/usage-aggregator-status", {
    access: access.masterAdmin,
    summary: "This instance's usage aggregator and threshold gate counters",
    response: aggregatorStatusResponseSchema,
  }, (c) => {
    const s = c.get("services");
    const agg = c.get("instance").usageAggregator;
    return c.json({
      generatedAt: new Date(s.clock.now()).toISOString(),
      aggregator: agg.status(),
      thresholdGate: agg.gate.status(),
    });
  });
  return app;
}
