import { assert, assertEquals, assertMatch } from "./assert.ts";
import { Client, dbTest, signUp } from "./harness.ts";

const ADMIN = "root@example.com";
const PATH = "/api/admin/usage-aggregator-status";

// ---- happy ----

dbTest(
  "GET usage-aggregator-status returns SPEC's aggregator and thresholdGate fields",
  async (app) => {
    const admin = await signUp(app, ADMIN);
    const r = await admin.get(PATH);
    assertEquals(r.status, 200);
    assertEquals(Object.keys(r.body).sort(), ["aggregator", "generatedAt", "thresholdGate"]);
    assertMatch(r.body.generatedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    const spec = [
      "enabled",
      "flushIntervalMs",
      "flushMaxEntries",
      "requestLogSampleRate",
      "enqueuedDeltas",
      "droppedWhenDisabled",
      "sampledLogs",
      "skippedLogs",
      "flushes",
      "flushErrors",
      "lastFlushAt",
      "lastFlushDurationMs",
      "lastFlushBucketCount",
      "lastFlushLogCount",
      "lastError",
      "pendingBuckets",
      "pendingLogs",
      "prunes",
      "lastPruneAt",
      "lastPruneRowsDeleted",
    ];
    for (const k of spec) assert(k in r.body.aggregator, `aggregator.${k}`);
    assertEquals(
      Object.keys(r.body.thresholdGate).sort(),
      [
        "allowed",
        "enabled",
        "evictedEntries",
        "intervalMs",
        "skippedDisabled",
        "skippedThrottled",
        "trackedOrgs",
      ],
    );
    assertEquals(r.body.aggregator.enabled, true);
    assertEquals(r.body.aggregator.flushIntervalMs, 1234);
    assertEquals(r.body.aggregator.flushMaxEntries, 55);
    assertEquals(r.body.aggregator.requestLogSampleRate, 1);
    assertEquals(r.body.aggregator.flushes, 0);
    assertEquals(r.body.aggregator.lastFlushAt, null);
  },
  {
    env: {
      ADMIN_EMAILS: ADMIN,
      USAGE_FLUSH_INTERVAL_MS: "1234",
      USAGE_FLUSH_MAX_ENTRIES: "55",
      REQUEST_LOG_SAMPLE_RATE: "1",
    },
  },
);

dbTest("usage-aggregator-status counters move with recorded and flushed traffic", async (app) => {
  const admin = await signUp(app, ADMIN);
  const agg = app.instance.usageAggregator;
  const base = {
    ts: app.clock.now(),
    method: "GET",
    path: "/~api/x",
    status: 200,
    bytes: 1,
    cache: "MISS" as const,
    kind: "api" as const,
    durationMs: 1,
  };
  // tenant 999999 does not exist: the flush discards its rows instead of failing forever.
  agg.record({ ...base, tenantId: 999_999 });
  agg.record({ ...base, tenantId: 999_999 });
  let st = (await admin.get(PATH)).body.aggregator;
  assertEquals(st.enqueuedDeltas, 2);
  assertEquals(st.sampledLogs, 2);
  assertEquals(st.pendingBuckets, 1);
  assertEquals(st.pendingLogs, 2);
  await agg.flush();
  st = (await admin.get(PATH)).body.aggregator;
  assertEquals(st.flushes, 1);
  assertEquals(st.flushErrors, 0);
  assertEquals(st.pendingBuckets, 0);
  assertEquals(st.pendingLogs, 0);
  assertEquals(st.lastFlushBucketCount, 1);
  assertEquals(st.lastFlushLogCount, 2);
  assertEquals(st.lastFlushAt, new Date(app.clock.now()).toISOString());
  assert(typeof st.lastFlushDurationMs === "number");
  assertEquals(st.prunes, 1, "the first flush also prunes old request logs");
}, { env: { ADMIN_EMAILS: ADMIN, REQUEST_LOG_SAMPLE_RATE: "1" } });

// ---- security ----

dbTest("usage-aggregator-status: 401 without a session, 403 for a non-admin", async (app) => {
  assertEquals((await new Client(app).get(PATH)).status, 401);
  const user = await signUp(app);
  const r = await user.get(PATH);
  assertEquals(r.status, 403);
  assertEquals(r.body.error.code, "forbidden");
}, { env: { ADMIN_EMAILS: ADMIN } });
