/**
 * The two master-admin quota endpoints (backfill, earned), two accounts with several tenants
 * each, and a plan change in the middle of a month.
 */
import { assertEquals, assertMatch } from "./assert.ts";
import { Client, createTenant, dbTest, signUp, tenantIdOf, type TestApp } from "./harness.ts";
import { ManualClock } from "../lib/clock.ts";
import { seedUsageDays } from "./fakes/usage_rows.ts";
import { INGEST_KEY, mail, ROOT } from "./quota_helpers.ts";
import { at } from "./quota_helpers.ts";
import { readQuotaSnapshot } from "../lib/kv/quota.ts";

const GB = 1_000_000_000;
const T0 = Date.UTC(2026, 10, 16, 0, 0, 0); // 2026-11-16: half of November has passed
// The real plan figures (no PLANS override): free 500k / 5 GB, pro 5M / 200 GB.
const opts = () => ({
  env: { QUOTAS: "on", ADMIN_EMAILS: ROOT, INGEST_KEY, MAIL_TRANSPORT_URL: mail.url },
  clock: new ManualClock(T0),
});

async function twoAccounts(app: TestApp) {
  const admin = await signUp(app, ROOT);
  const pro = await signUp(app);
  await admin.patch(`/api/admin/billing/${pro.userId}`, { planCode: "pro" });
  const a = await createTenant(pro);
  const b = await createTenant(pro);
  const c = await createTenant(pro);
  const free = await signUp(app);
  const f = await createTenant(free);
  return { admin, pro, free, a, b, c, f };
}

dbTest(
  "backfill publishes every account's snapshot once; a second run changes nothing",
  at(T0, async (app) => {
    const { admin, pro, free, a, b, f } = await twoAccounts(app);
    await seedUsageDays(app, await tenantIdOf(app, a), [{
      day: "2026-11-02",
      requests: 3_000_000,
      bytes: 10,
    }]);
    await seedUsageDays(app, await tenantIdOf(app, b), [{
      day: "2026-11-03",
      requests: 1_500_000,
      bytes: 10,
    }]);
    await seedUsageDays(app, await tenantIdOf(app, f), [
      { day: "2026-11-04", requests: 100, bytes: 6 * GB },
      { day: "2026-10-31", requests: 400_000, bytes: 0 }, // last month does not count
    ]);
    assertEquals((await new Client(app).post("/api/admin/quota-snapshots/backfill")).status, 401);
    assertEquals((await pro.post("/api/admin/quota-snapshots/backfill")).status, 403);
    const before = mail.sent.length;
    const r = await admin.post("/api/admin/quota-snapshots/backfill");
    assertEquals(r.status, 200);
    assertEquals([r.body.ok, r.body.orgs, r.body.processed], [true, 3, 3]);
    const ps = await readQuotaSnapshot(app.services.kv, pro.userId);
    assertEquals([ps?.plan, ps?.level, ps?.paused], ["pro", 80, false], "4.5M of 5M across a, b");
    const fs = await readQuotaSnapshot(app.services.kv, free.userId);
    assertEquals([fs?.plan, fs?.level, fs?.paused, fs?.reason], ["free", 100, true, "bandwidth"]);
    assertEquals(mail.sent.length - before, 2, "one warning each");
    const again = await admin.post("/api/admin/quota-snapshots/backfill");
    assertEquals([again.body.processed, again.body.changed], [3, 0]);
    assertEquals(mail.sent.length - before, 2, "idempotent: no second mail");
    // The billing state shows each account its own month.
    const st = (await pro.get("/api/billing/state")).body;
    assertEquals([st.plan, st.usage.requests, st.usage.level], ["pro", 4_500_000, 80]);
    assertEquals(st.overage.toDate.usd, 0);
    // 4.5M in 15 of 30 days projects to 9M: 4M extra requests at 1 USD per million.
    assertEquals(st.overage.projected.usd, 4);
    const fst = (await free.get("/api/billing/state")).body;
    assertEquals([fst.usage.paused, fst.usage.reason, fst.overage], [true, "bandwidth", null]);
  }),
  opts(),
);

dbTest(
  "a plan change mid-month: free → pro resumes and meters, the month's use carries over",
  at(T0, async (app) => {
    const { admin, free, f } = await twoAccounts(app);
    await seedUsageDays(app, await tenantIdOf(app, f), [{
      day: "2026-11-10",
      requests: 600_000,
      bytes: 1,
    }]);
    await admin.post("/api/admin/quota-snapshots/backfill");
    assertEquals((await readQuotaSnapshot(app.services.kv, free.userId))?.paused, true);
    const check =
      (await new Client(app).get(`/api/usage/check?tenant=${f}`, { "x-ingest-key": INGEST_KEY }))
        .body;
    assertEquals([check.plan, check.allowed, check.account.reason], ["free", false, "requests"]);
    assertEquals(
      (await free.post("/api/tenants", {
        slug: "free-second",
        cms: "generic",
        originUrl: "https://assets.example.com",
      })).status,
      403,
    );

    await admin.patch(`/api/admin/billing/${free.userId}`, { planCode: "pro" });
    const snap = await readQuotaSnapshot(app.services.kv, free.userId);
    assertEquals([snap?.plan, snap?.level, snap?.paused], ["pro", 0, false], "600k of 5M");
    const after =
      (await new Client(app).get(`/api/usage/check?tenant=${f}`, { "x-ingest-key": INGEST_KEY }))
        .body;
    assertEquals([after.plan, after.allowed, after.limits.requests], ["pro", true, 5_000_000]);
    assertEquals(
      (await free.post("/api/tenants", {
        slug: "free-second",
        cms: "generic",
        originUrl: "https://assets.example.com",
      })).status,
      201,
    );
  }),
  opts(),
);

dbTest(
  "GET /api/admin/tenants/{slug}/earned: shares, revenue, modeled cost, margin",
  at(T0, async (app) => {
    const { admin, pro, a, b, f } = await twoAccounts(app);
    await seedUsageDays(app, await tenantIdOf(app, a), [
      { day: "2026-10-05", requests: 1_000_000, bytes: 40 * GB },
      { day: "2026-10-06", requests: 2_000_000, bytes: 60 * GB },
    ]);
    await seedUsageDays(app, await tenantIdOf(app, b), [
      { day: "2026-10-07", requests: 3_000_000, bytes: 150 * GB },
    ]);
    const r = await admin.get(`/api/admin/tenants/${a}/earned?period=2026-10`);
    assertEquals(r.status, 200, r.text);
    const e = r.body;
    assertEquals(e.owner, { userId: pro.userId, plan: "pro", priceUsd: 15 });
    assertEquals(e.usage.tenant, { requests: 3_000_000, bytes: 100 * GB });
    assertEquals(e.usage.owner, { requests: 6_000_000, bytes: 250 * GB, tenants: 3 });
    assertEquals(e.share, { requests: 0.5, bytes: 0.4, revenue: 0.45 });
    // 1M extra requests ($1) × 0.5 + 50 GB extra ($0.25) × 0.4; October is over: billed.
    assertEquals(e.revenue, {
      subscriptionUsd: 6.75,
      overageUsd: 0.6,
      overageBasis: "billed",
      totalUsd: 7.35,
    });
    // 3M × 0.30/M compute, 3M × 0.50/M KV reads + 31 days × 5/M writes, 2 usage rows × 1/M.
    assertEquals(e.cost.totalUsd, 2.400157);
    assertEquals(e.margin.usd, 4.949843);
    // Default period: the current month, with overage projected.
    const now = (await admin.get(`/api/admin/tenants/${f}/earned`)).body;
    assertEquals([now.period, now.revenue.overageBasis, now.owner.plan], [
      "2026-11",
      "projected",
      "free",
    ]);
    assertEquals(now.revenue.totalUsd, 0);

    const bad = await admin.get(`/api/admin/tenants/${a}/earned?period=2026-13`);
    assertEquals(bad.status, 400);
    assertEquals(bad.body.error.details.fields[0].path, "period");
    assertMatch(bad.body.error.message, /period/);
    assertEquals((await admin.get("/api/admin/tenants/nope-nope/earned")).status, 404);
    assertEquals((await pro.get(`/api/admin/tenants/${a}/earned`)).status, 403);
    assertEquals((await new Client(app).get(`/api/admin/tenants/${a}/earned`)).status, 401);
  }),
  opts(),
);

dbTest(
  "usage/check: 404 for a tenant the ingest key does not know, 400 on a bad period",
  at(T0, async (app) => {
    await twoAccounts(app);
    const h = { "x-ingest-key": INGEST_KEY };
    assertEquals((await new Client(app).get("/api/usage/check?tenant=ghost", h)).status, 404);
    const bad = await new Client(app).get("/api/usage/check?tenant=ghost&period=2026-1", h);
    assertEquals([bad.status, bad.body.error.details.fields[0].path], [400, "period"]);
  }),
  opts(),
);
