/**
 * Metered overage for pro through the real Stripe SDK against the loopback fake: reported once
 * per account per finished UTC day as billing meter events, idempotently (a retry reuses the
 * idempotency key and never bills twice); Stripe failures are retried later and never block
 * traffic.
 */
import { assertEquals } from "./assert.ts";
import { createTenant, dbTest, signUp, tenantIdOf, type TestApp } from "./harness.ts";
import { ManualClock } from "../lib/clock.ts";
import { seedUsageDays } from "./fakes/usage_rows.ts";
import { startFakeStripe } from "./fakes/stripe.ts";
import { startUpstream } from "./fakes/upstream.ts";
import { edgeGet, mail, quotaEnv, ROOT } from "./quota_helpers.ts";
import { at } from "./quota_helpers.ts";
import { reportOverage } from "../lib/billing/overage.ts";

const GB = 1_000_000_000;
const stripe = startFakeStripe();
const up = startUpstream();
// Teardown, not a test: closed when the file's tests are done, also when some are filtered out.
globalThis.addEventListener("unload", () => {
  void stripe.close();
  void up.close();
});
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 15, 1, 0, 0); // 2026-11-15 01:00: the 14th is over
const opts = () => ({
  env: quotaEnv(mail.url, {
    PLANS: "{}", // the real figures: pro includes 5M requests and 200 GB
    STRIPE_SECRET_KEY: "sk_test_overage",
    STRIPE_PRICE_PRO: "price_pro_1",
    STRIPE_API_BASE: stripe.url,
  }),
  clock: new ManualClock(T0),
});

async function proAccount(app: TestApp) {
  const admin = await signUp(app, ROOT);
  const user = await signUp(app);
  await user.post("/api/billing/checkout"); // creates the Stripe customer
  await admin.patch(`/api/admin/billing/${user.userId}`, { planCode: "pro" });
  const slug = await createTenant(user, { apiOrigin: up.url });
  const slug2 = await createTenant(user);
  const [{ c }] = await app.services.dbHandle.query<{ c: string }>(
    `SELECT stripe_customer_id AS c FROM billing_accounts WHERE user_id = '${user.userId}'`,
  );
  return { user, slug, slug2, customer: c };
}

const eventsFor = (customer: string) => stripe.meterEvents.filter((e) => e.customer === customer);

dbTest(
  "pro overage is reported to Stripe exactly once per day, as month-to-date deltas",
  at(T0, async (app) => {
    const { slug, slug2, customer } = await proAccount(app);
    await seedUsageDays(app, await tenantIdOf(app, slug), [
      { day: "2026-11-13", requests: 4_000_000, bytes: 150 * GB },
      { day: "2026-11-14", requests: 1_500_000, bytes: 50 * GB },
      { day: "2026-11-15", requests: 9_000_000, bytes: 0 }, // today: not finished, not reported
    ]);
    await seedUsageDays(app, await tenantIdOf(app, slug2), [
      { day: "2026-11-14", requests: 500_000, bytes: 50 * GB },
    ]);
    const first = await reportOverage(app.services);
    assertEquals([first.day, first.claimed, first.reported, first.failed], ["2026-11-14", 1, 1, 0]);
    // Through the 14th: 6M requests (1M over), 250 GB (50 GB over), across both tenants.
    assertEquals(
      eventsFor(customer).map((e) => [e.eventName, e.value]),
      [["cachely_overage_requests", 1_000_000], ["cachely_overage_bytes", 50 * GB]],
    );
    // Again the same day (another instance, the next hour): nothing more.
    app.clock.advance(HOUR);
    assertEquals((await reportOverage(app.services)).claimed, 0);
    assertEquals(eventsFor(customer).length, 2);

    // The next day reports only what the 15th added.
    app.clock.set(Date.UTC(2026, 10, 16, 0, 30));
    const next = await reportOverage(app.services);
    assertEquals([next.day, next.reported], ["2026-11-15", 1]);
    assertEquals(eventsFor(customer).slice(2).map((e) => [e.eventName, e.value]), [
      ["cachely_overage_requests", 9_000_000],
    ]);
    const [row] = await app.services.dbHandle.query<{ amount_usd: number; status: string }>(
      "SELECT amount_usd, status FROM overage_reports WHERE day = '2026-11-14'",
    );
    assertEquals([Number(row.amount_usd), row.status], [1.25, "reported"]);
  }),
  opts(),
);

dbTest(
  "a failed report is retried later with the same idempotency key; traffic is served",
  at(T0, async (app) => {
    const { slug, customer } = await proAccount(app);
    await seedUsageDays(app, await tenantIdOf(app, slug), [
      { day: "2026-11-14", requests: 5_200_000, bytes: 0 },
    ]);
    stripe.failMeterEvents(1);
    const failed = await reportOverage(app.services);
    assertEquals([failed.claimed, failed.failed], [1, 1]);
    assertEquals(eventsFor(customer).length, 0);
    // Pro traffic never waits on or stops for Stripe.
    assertEquals((await edgeGet(app, slug, "/~api/x")).status, 200);
    // Not due yet; then due after the backoff (5 minutes).
    assertEquals((await reportOverage(app.services)).reported, 0);
    app.clock.advance(5 * 60_000);
    assertEquals((await reportOverage(app.services)).reported, 1);
    assertEquals(eventsFor(customer).map((e) => e.value), [200_000]);
    const key = "cachely-overage-" + (await app.services.dbHandle.query<{ u: string }>(
      "SELECT user_id AS u FROM overage_reports",
    ))[0].u + "-2026-11-14-requests";
    const posts = stripe.requests.filter((r) => r.idempotencyKey === key);
    assertEquals(posts.length, 2, "the failed and the retried post carry one key");

    // A retry whose earlier attempt did reach Stripe (the answer was lost) bills nothing more.
    await app.services.dbHandle.exec(
      "UPDATE overage_reports SET status = 'failed', next_attempt_at = '2026-01-01T00:00:00Z'",
    );
    assertEquals((await reportOverage(app.services)).reported, 1);
    assertEquals(eventsFor(customer).length, 1, "Stripe kept one event for the key");
  }),
  opts(),
);

dbTest(
  "free accounts and accounts under the included amounts report nothing",
  at(T0, async (app) => {
    const { slug } = await proAccount(app);
    const free = await signUp(app);
    const f = await createTenant(free);
    await seedUsageDays(app, await tenantIdOf(app, slug), [{
      day: "2026-11-14",
      requests: 10,
      bytes: 10,
    }]);
    await seedUsageDays(app, await tenantIdOf(app, f), [{
      day: "2026-11-14",
      requests: 9_000_000,
      bytes: 0,
    }]);
    const before = stripe.meterEvents.length;
    assertEquals((await reportOverage(app.services)).claimed, 0);
    assertEquals(stripe.meterEvents.length, before);
  }),
  opts(),
);
