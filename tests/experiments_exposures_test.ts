// deno-lint-ignore-file no-explicit-any -- JSON bodies in tests are read loosely
import { assert, assertEquals } from "./assert.ts";
import { dbTest, type TestApp } from "./harness.ts";
import { activeExperiment, createExperiment, type Team, team } from "./experiments_helpers.ts";

const summaryPath = (slug: string, id: number, goal?: string) =>
  `/api/tenants/${slug}/ai-experiments/${id}/exposures${
    goal === undefined ? "" : `?goal=${encodeURIComponent(goal)}`
  }`;

const close = (a: number, b: number, what: string, tol = 1e-9) =>
  assert(Math.abs(a - b) <= tol, `${what}: ${a} ≉ ${b}`);

async function exposures(
  app: TestApp,
  tenantId: number,
  experimentId: number,
  variantId: number,
  key: string,
  n: number,
  lastSeen: string,
) {
  await app.services.dbHandle.exec(
    `INSERT INTO exposure_counts (tenant_id, experiment_id, variant_id, variant_key, exposures, last_seen_at)
     VALUES (${tenantId}, ${experimentId}, ${variantId}, '${key}', ${n}, '${lastSeen}')`,
  );
}

async function events(
  app: TestApp,
  tenantId: number,
  experimentId: number,
  variantId: number,
  key: string,
  name: string,
  n: number,
  at: string,
) {
  await app.services.dbHandle.exec(
    `INSERT INTO experiment_events (tenant_id, experiment_id, variant_id, variant_key, event_name, created_at)
     SELECT ${tenantId}, ${experimentId}, ${variantId}, '${key}', '${name}', '${at}'::timestamptz
     FROM generate_series(1, ${n})`,
  );
}

async function seeded(app: TestApp): Promise<{ t: Team; e: any }> {
  const t = await team(app);
  const e = await activeExperiment(app, t);
  return { t, e };
}

// ---- happy ----

dbTest("GET exposures reports every SPEC field, computed by hand", async (app) => {
  const { t, e } = await seeded(app);
  const [control, casual] = e.variants;
  const goal = "homepage_hero_cta_click";
  await exposures(app, t.tenantId, e.id, control.id, "control", 1000, "2026-11-20T10:00:00Z");
  await exposures(app, t.tenantId, e.id, casual.id, "casual", 1100, "2026-11-21T11:00:00Z");
  await events(app, t.tenantId, e.id, control.id, "control", goal, 100, "2026-11-20T09:00:00Z");
  await events(app, t.tenantId, e.id, casual.id, "casual", goal, 150, "2026-11-21T08:00:00Z");
  await events(app, t.tenantId, e.id, casual.id, "casual", "other_goal", 7, "2026-11-21T12:00:00Z");

  const r = await t.viewer.get(summaryPath(t.slug, e.id));
  assertEquals(r.status, 200);
  const s = r.body;
  assertEquals(s.experimentId, e.id);
  assertEquals(s.goalEventName, goal, "default goal");
  assertEquals(s.totalExposures, 2100);
  assertEquals(s.totalEvents, 250);
  assertEquals(s.variants.length, 2);
  const [c, v] = s.variants;
  assertEquals(
    [c.variantId, c.variantKey, c.label, c.transformProfile, c.trafficWeight],
    [control.id, "control", "control", null, 1],
  );
  assertEquals(
    [v.variantId, v.variantKey, v.label, v.transformProfile, v.trafficWeight],
    [casual.id, "casual", "casual", "casual", 1],
  );
  assertEquals([c.exposures, v.exposures], [1000, 1100]);
  close(c.actualSplit, 1000 / 2100 * 100, "control actualSplit"); // 47.619…
  close(v.actualSplit, 1100 / 2100 * 100, "casual actualSplit"); // 52.380…
  assertEquals([c.expectedSplit, v.expectedSplit], [50, 50]);
  assertEquals([c.eventCount, v.eventCount], [100, 150]);
  assertEquals(c.conversionRate, 10); // 100 / 1000 × 100
  close(v.conversionRate, 150 / 1100 * 100, "casual conversionRate"); // 13.636…
  assertEquals(c.lastSeenAt, "2026-11-20T10:00:00.000Z");
  assertEquals(v.lastSeenAt, "2026-11-21T11:00:00.000Z");
  assertEquals(c.lastEventAt, "2026-11-20T09:00:00.000Z");
  assertEquals(v.lastEventAt, "2026-11-21T08:00:00.000Z", "other goals do not count");

  // Extras: SRM χ² = 2·50²/1050 = 4.7619, p = erfc(1.543033) = 0.0290963 (not flagged).
  assertEquals(s.controlVariantId, control.id);
  close(s.sampleRatioMismatch.chiSquared, 5000 / 1050, "chi²");
  assertEquals(s.sampleRatioMismatch.degreesOfFreedom, 1);
  close(s.sampleRatioMismatch.pValue, 0.0290963, "p", 1e-6);
  assertEquals(s.sampleRatioMismatch.flagged, false);
  // Uplift: 13.6364 − 10 = 3.6364 points; se = √(.1·.9/1000 + p(1−p)/1100) with
  // p = 0.136364 → √(0.00009 + 0.000107063) = 0.0140379 → CI 3.6364 ± 2.7514.
  assertEquals(c.uplift, null, "control has no uplift against itself");
  close(v.uplift.absolute, 3.636364, "uplift", 1e-5);
  close(v.uplift.ciLower, 0.884951, "ciLower", 1e-4);
  close(v.uplift.ciUpper, 6.387776, "ciUpper", 1e-4);
  assertEquals(v.uplift.baselineVariantId, control.id);
  // Sequential (mSPRT, τ = 0.02): V = 0.000197062, Λ = √(V/(V+τ²))·exp(τ²d²/(2V(V+τ²)))
  // = 5.4383 < 1/0.05, so the any-time sequence −0.9336 … 8.2063 still holds 0: the
  // fixed interval above calls it, the sequence says keep running.
  assertEquals(c.sequential, null);
  assertEquals(v.sequential.method, "msprt");
  close(v.sequential.likelihoodRatio, 5.438288, "Λ", 1e-5);
  close(v.sequential.csLower, -0.933569, "csLower", 1e-4);
  close(v.sequential.csUpper, 8.206297, "csUpper", 1e-4);
  assertEquals(v.sequential.verdict, "keep_running");
  assertEquals(v.sequential.baselineVariantId, control.id);

  const other = await t.viewer.get(summaryPath(t.slug, e.id, "other_goal"));
  assertEquals(other.body.goalEventName, "other_goal");
  assertEquals(other.body.totalEvents, 7);
  assertEquals(other.body.variants.map((x: any) => x.eventCount), [0, 7]);
});

dbTest("GET exposures with no traffic: zeros, null timestamps, no SRM", async (app) => {
  const { t, e } = await seeded(app);
  const s = (await t.viewer.get(summaryPath(t.slug, e.id))).body;
  assertEquals([s.totalExposures, s.totalEvents], [0, 0]);
  for (const v of s.variants) {
    assertEquals([v.exposures, v.actualSplit, v.expectedSplit], [0, 0, 50]);
    assertEquals([v.eventCount, v.conversionRate, v.lastSeenAt, v.lastEventAt], [0, 0, null, null]);
    assertEquals(v.uplift, null);
  }
  assertEquals(s.sampleRatioMismatch, null);
  const bare = await createExperiment(t.owner, t.slug, {
    name: "empty",
    variants: [{ key: "a" }, { key: "b" }],
  });
  await t.owner.put(`/api/tenants/${t.slug}/ai-experiments/${bare.id}/variants`, { variants: [] });
  const b = (await t.viewer.get(summaryPath(t.slug, bare.id))).body;
  assertEquals([b.variants, b.controlVariantId, b.sampleRatioMismatch], [[], null, null]);
});

dbTest("GET exposures: events without exposures keep conversionRate 0", async (app) => {
  const { t, e } = await seeded(app);
  const [control] = e.variants;
  await events(
    app,
    t.tenantId,
    e.id,
    control.id,
    "control",
    "homepage_hero_cta_click",
    3,
    "2026-11-20T09:00:00Z",
  );
  const s = (await t.viewer.get(summaryPath(t.slug, e.id))).body;
  assertEquals(s.variants[0].eventCount, 3);
  assertEquals(s.variants[0].conversionRate, 0);
});

dbTest(
  "GET exposures excludes rows whose variant id/key no longer match, and flags SRM",
  async (app) => {
    const { t, e } = await seeded(app);
    const [oldControl, oldCasual] = e.variants;
    await exposures(app, t.tenantId, e.id, oldControl.id, "control", 500, "2026-11-20T10:00:00Z");
    await events(
      app,
      t.tenantId,
      e.id,
      oldCasual.id,
      "casual",
      "homepage_hero_cta_click",
      9,
      "2026-11-20T10:00:00Z",
    );
    const put = await t.owner.put(`/api/tenants/${t.slug}/ai-experiments/${e.id}/variants`, {
      variants: [{ key: "control" }, { key: "casual", config: { transformProfile: "casual" } }, {
        key: "big",
        weight: 2,
      }],
    });
    assertEquals(put.status, 200);
    const [c, v, big] = put.body.variants;
    await exposures(app, t.tenantId, e.id, c.id, "control", 300, "2026-11-21T10:00:00Z");
    await exposures(app, t.tenantId, e.id, v.id, "casual", 300, "2026-11-21T10:00:00Z");
    await exposures(app, t.tenantId, e.id, big.id, "big", 400, "2026-11-21T10:00:00Z");
    // Same id, stale key: excluded too.
    await exposures(app, t.tenantId, e.id, big.id, "renamed", 1000, "2026-11-21T10:00:00Z");
    await events(
      app,
      t.tenantId,
      e.id,
      v.id,
      "control",
      "homepage_hero_cta_click",
      5,
      "2026-11-21T10:00:00Z",
    );
    const s = (await t.viewer.get(summaryPath(t.slug, e.id))).body;
    assertEquals(s.totalExposures, 1000);
    assertEquals(s.totalEvents, 0);
    assertEquals(s.variants.map((x: any) => x.actualSplit), [30, 30, 40]);
    assertEquals(s.variants.map((x: any) => x.expectedSplit), [25, 25, 50]);
    // Expected 250/250/500: χ² = 2500/250 + 2500/250 + 10000/500 = 40, df 2, p = e^-20.
    close(s.sampleRatioMismatch.chiSquared, 40, "chi²");
    close(s.sampleRatioMismatch.pValue, Math.exp(-20), "p", 1e-15);
    assertEquals(s.sampleRatioMismatch.flagged, true);
  },
);

// ---- errors ----

dbTest("GET exposures: invalid goal 400, invalid id 400, unknown experiment 404", async (app) => {
  const { t, e } = await seeded(app);
  for (const goal of ["", "has space", "a".repeat(81)]) {
    const r = await t.viewer.get(summaryPath(t.slug, e.id, goal));
    assertEquals(r.status, 400, goal);
  }
  assertEquals((await t.viewer.get(summaryPath(t.slug, e.id, "a".repeat(80)))).status, 200);
  assertEquals(
    (await t.viewer.get(`/api/tenants/${t.slug}/ai-experiments/x/exposures`)).status,
    400,
  );
  assertEquals((await t.viewer.get(summaryPath(t.slug, e.id + 100))).status, 404);
});

// ---- security ----

dbTest("GET exposures is tenant-isolated: other tenants' rows never count", async (app) => {
  const { t, e } = await seeded(app);
  const other = await team(app);
  const [control] = e.variants;
  // Rows claiming my experiment id but written under another tenant.
  await events(
    app,
    other.tenantId,
    e.id,
    control.id,
    "control",
    "homepage_hero_cta_click",
    4,
    "2026-11-20T10:00:00Z",
  );
  const s = (await t.viewer.get(summaryPath(t.slug, e.id))).body;
  assertEquals(s.totalEvents, 0);
  assertEquals((await other.owner.get(summaryPath(other.slug, e.id))).status, 404);
  assertEquals((await t.outsider.get(summaryPath(t.slug, e.id))).status, 404);
});
