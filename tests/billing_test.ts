/** Billing: state, checkout, portal, sync, the Stripe webhook and the admin plan override. */
import { createHmac } from "node:crypto";
import { assert, assertEquals, assertRejects } from "./assert.ts";
import { Client, createTenant, dbTest, signUp, type TestApp } from "./harness.ts";
import { fakeSubscription, startFakeStripe } from "./fakes/stripe.ts";
import { verifyStripeEvent } from "../lib/billing/webhook.ts";
import { ApiError } from "../lib/errors.ts";

const ROOT = "root@example.com";
const SECRET_KEY = "sk_test_billing_secret_key";
const WEBHOOK_SECRET = "whsec_billing_webhook_secret";
const stripe = startFakeStripe();
// Teardown, not a test: closed when the file's tests are done, also when some are filtered out.
globalThis.addEventListener("unload", () => void stripe.close());
const billing = {
  env: {
    ADMIN_EMAILS: ROOT,
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_PRO: "price_pro_1",
    STRIPE_API_BASE: stripe.url,
    QUOTAS: "on",
  },
};
const noBilling = { env: { ADMIN_EMAILS: ROOT } };

// ---- signing helpers (Stripe's scheme: v1 = hex HMAC-SHA256(secret, `${t}.${body}`)) ----

// node:crypto, since WebCrypto refuses the empty key the "empty secret" case needs.
function hmacHex(secret: string, message: string): string {
  return createHmac("sha256", secret).update(message).digest("hex");
}

function signature(body: string, t: number, secret = WEBHOOK_SECRET) {
  return `t=${t},v1=${hmacHex(secret, `${t}.${body}`)}`;
}

const nowSeconds = (app: TestApp) => Math.floor(app.clock.now() / 1000);

function eventBody(type: string, object: Record<string, unknown>, id = "evt_1") {
  return JSON.stringify({ id, object: "event", type, api_version: "2025-03-31", data: { object } });
}

async function deliver(app: TestApp, body: string, header?: string) {
  const sig = header ?? signature(body, nowSeconds(app));
  return await new Client(app).post("/api/billing/webhook", body, { "stripe-signature": sig });
}

const PERIOD_END = 1_900_000_000; // 2030-03-17T17:46:40Z

/** A user whose checkout has created a Stripe customer; returns it and the customer id. */
async function checkedOutUser(app: TestApp) {
  const user = await signUp(app);
  const r = await user.post("/api/billing/checkout");
  assertEquals(r.status, 200, r.text);
  return { user, customerId: await customerIdOf(app, user.userId) };
}

async function customerIdOf(app: TestApp, userId: string): Promise<string> {
  const [row] = await app.services.dbHandle.query<{ stripe_customer_id: string }>(
    `SELECT stripe_customer_id FROM billing_accounts WHERE user_id = '${userId}'`,
  );
  return row.stripe_customer_id;
}

// ---- without billing configured ----

dbTest(
  "billing not configured: state is free with no limits, checkout/portal 400, webhook 403",
  async (app) => {
    assertEquals((await new Client(app).get("/api/billing/state")).status, 401);
    const user = await signUp(app);
    const state = await user.get("/api/billing/state");
    assertEquals(state.status, 200);
    const { usage, overage, ...rest } = state.body;
    assertEquals([usage.requests, usage.level, usage.paused, overage], [0, 0, false, null]);
    assertEquals(rest, {
      enabled: false,
      plan: "free",
      status: "none",
      quotas: false,
      limits: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      adminOverride: false,
      hasCustomer: false,
      updatedAt: null,
    });
    for (const path of ["/api/billing/checkout", "/api/billing/portal"]) {
      const r = await user.post(path);
      assertEquals(r.status, 400, path);
      assertEquals(r.body.error.code, "billing_not_configured");
    }
    const sync = await user.post("/api/billing/sync");
    assertEquals(sync.status, 200);
    assertEquals([sync.body.ok, sync.body.synced, sync.body.billing.plan], [true, false, "free"]);
    const body = eventBody("customer.subscription.updated", {});
    const hook = await deliver(app, body, signature(body, nowSeconds(app)));
    assertEquals(hook.status, 403);
    assertEquals(hook.body.error.code, "webhook_not_configured");
    // QUOTAS=off (this installation): a second and third tenant are fine.
    for (let i = 0; i < 3; i++) await createTenant(user);
  },
  noBilling,
);

// ---- state, checkout, portal ----

dbTest("GET /api/billing/state: a user without billing is on free with its limits", async (app) => {
  assertEquals((await new Client(app).get("/api/billing/state")).status, 401);
  const user = await signUp(app);
  const r = await user.get("/api/billing/state");
  assertEquals(r.status, 200);
  const { usage, overage, ...rest } = r.body;
  assertEquals(usage.period, new Date(app.clock.now()).toISOString().slice(0, 7));
  assertEquals([usage.requests, usage.bytes, usage.percent], [0, 0, { requests: 0, bytes: 0 }]);
  assertEquals(overage, null, "free pauses instead of metering");
  assertEquals(rest, {
    enabled: true,
    plan: "free",
    status: "none",
    quotas: true,
    limits: {
      tenants: 1,
      monthlyRequests: 500_000,
      monthlyBytes: 5_000_000_000,
      overLimit: "pause",
      priceUsd: 0,
    },
    currentPeriodEnd: null,
    cancelAtPeriodEnd: false,
    adminOverride: false,
    hasCustomer: false,
    updatedAt: null,
  });
}, billing);

dbTest(
  "POST /api/billing/checkout creates one customer, then a subscription session",
  async (app) => {
    stripe.requests.length = 0;
    assertEquals((await new Client(app).post("/api/billing/checkout")).status, 401);
    const user = await signUp(app);
    const r = await user.post("/api/billing/checkout");
    assertEquals(r.status, 200, r.text);
    assertEquals(Object.keys(r.body), ["url"]);
    assert(r.body.url.startsWith("https://checkout.fake/cs_test_"), r.body.url);
    const again = await user.post("/api/billing/checkout");
    assertEquals(again.status, 200);
    assert(again.body.url !== r.body.url);

    const customers = stripe.requests.filter((q) => q.path === "/v1/customers");
    assertEquals(customers.length, 1, "the customer is reused");
    assertEquals(customers[0].params, { email: user.email, "metadata[userId]": user.userId });
    assertEquals(customers[0].authorization, `Bearer ${SECRET_KEY}`);
    const sessions = stripe.requests.filter((q) => q.path === "/v1/checkout/sessions");
    assertEquals(sessions.length, 2);
    const customerId = await customerIdOf(app, user.userId);
    assertEquals(sessions[1].params, {
      mode: "subscription",
      customer: customerId,
      client_reference_id: user.userId,
      "line_items[0][price]": "price_pro_1",
      "line_items[0][quantity]": "1",
      "subscription_data[metadata][userId]": user.userId,
      success_url: "http://localhost:8000/dashboard?billing=success",
      cancel_url: "http://localhost:8000/dashboard?billing=cancel",
    });
    const state = await user.get("/api/billing/state");
    assertEquals([state.body.plan, state.body.hasCustomer], ["free", true]);
    for (const res of [r, again, state]) {
      assert(!res.text.includes(SECRET_KEY) && !res.text.includes(WEBHOOK_SECRET));
      assert(!res.text.includes(customerId), "provider ids are not shown");
    }
  },
  billing,
);

dbTest("POST /api/billing/checkout: 400 when already subscribed", async (app) => {
  const { user, customerId } = await checkedOutUser(app);
  const body = eventBody(
    "customer.subscription.created",
    fakeSubscription("sub_a", customerId, "active", PERIOD_END),
  );
  assertEquals((await deliver(app, body)).status, 200);
  const r = await user.post("/api/billing/checkout");
  assertEquals(r.status, 400);
  assertEquals(r.body.error.code, "already_subscribed");
}, billing);

dbTest("POST /api/billing/portal: 400 without a customer, then a portal url", async (app) => {
  stripe.requests.length = 0;
  assertEquals((await new Client(app).post("/api/billing/portal")).status, 401);
  const user = await signUp(app);
  const none = await user.post("/api/billing/portal");
  assertEquals(none.status, 400);
  assertEquals(none.body.error.code, "no_billing_customer");
  await user.post("/api/billing/checkout");
  const r = await user.post("/api/billing/portal");
  assertEquals(r.status, 200, r.text);
  assertEquals(Object.keys(r.body), ["url"]);
  assert(r.body.url.startsWith("https://portal.fake/bps_"), r.body.url);
  const portal = stripe.requests.filter((q) => q.path === "/v1/billing_portal/sessions");
  assertEquals(portal.map((q) => q.params), [{
    customer: await customerIdOf(app, user.userId),
    return_url: "http://localhost:8000/dashboard",
  }]);
}, billing);

// ---- webhook events ----

dbTest(
  "webhook: subscription created/updated/deleted move the plan, repeated delivery is idempotent",
  async (app) => {
    const { user, customerId } = await checkedOutUser(app);
    const created = eventBody(
      "customer.subscription.created",
      fakeSubscription("sub_1", customerId, "active", PERIOD_END),
    );
    for (let i = 0; i < 2; i++) {
      const r = await deliver(app, created);
      assertEquals([r.status, r.body], [200, { received: true }]);
    }
    let state = await user.get("/api/billing/state");
    assertEquals(
      [state.body.plan, state.body.status, state.body.limits, state.body.currentPeriodEnd],
      ["pro", "active", {
        tenants: null,
        monthlyRequests: 5_000_000,
        monthlyBytes: 200_000_000_000,
        overLimit: "meter",
        priceUsd: 15,
      }, "2030-03-17T17:46:40.000Z"],
    );
    const [{ n }] = await app.services.dbHandle.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM billing_accounts",
    );
    assertEquals(n, 1);

    const unpaid = eventBody(
      "customer.subscription.updated",
      fakeSubscription("sub_1", customerId, "past_due", PERIOD_END, { cancel_at_period_end: true }),
      "evt_2",
    );
    assertEquals((await deliver(app, unpaid)).status, 200);
    state = await user.get("/api/billing/state");
    assertEquals([state.body.plan, state.body.status, state.body.cancelAtPeriodEnd], [
      "free",
      "past_due",
      true,
    ]);

    const trialing = eventBody(
      "customer.subscription.updated",
      fakeSubscription("sub_1", customerId, "trialing", PERIOD_END),
      "evt_3",
    );
    await deliver(app, trialing);
    assertEquals((await user.get("/api/billing/state")).body.plan, "pro");

    const deleted = eventBody(
      "customer.subscription.deleted",
      fakeSubscription("sub_1", customerId, "canceled", PERIOD_END),
      "evt_4",
    );
    for (let i = 0; i < 2; i++) assertEquals((await deliver(app, deleted)).status, 200);
    state = await user.get("/api/billing/state");
    assertEquals([state.body.plan, state.body.status], ["free", "canceled"]);
  },
  billing,
);

dbTest("webhook: checkout.session.completed re-reads the subscription from Stripe", async (app) => {
  const { user, customerId } = await checkedOutUser(app);
  stripe.setSubscription(fakeSubscription("sub_co", customerId, "active", PERIOD_END));
  const body = eventBody("checkout.session.completed", {
    id: "cs_test_x",
    object: "checkout.session",
    customer: customerId,
    subscription: "sub_co",
    client_reference_id: user.userId,
  });
  const r = await deliver(app, body);
  assertEquals([r.status, r.body], [200, { received: true }]);
  assert(stripe.requests.some((q) => q.method === "GET" && q.path === "/v1/subscriptions/sub_co"));
  const state = await user.get("/api/billing/state");
  assertEquals([state.body.plan, state.body.status], ["pro", "active"]);
}, billing);

dbTest(
  "webhook: unknown event types and unknown customers are received and ignored",
  async (app) => {
    const user = await signUp(app);
    const unknownType = eventBody("invoice.paid", { id: "in_1", customer: "cus_nobody" });
    assertEquals((await deliver(app, unknownType)).body, { received: true });
    const unknownCustomer = eventBody(
      "customer.subscription.created",
      fakeSubscription("sub_x", "cus_nobody", "active", PERIOD_END, {
        metadata: { userId: "no-such-user" },
      }),
    );
    const r = await deliver(app, unknownCustomer);
    assertEquals([r.status, r.body], [200, { received: true }]);
    const [{ n }] = await app.services.dbHandle.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM billing_accounts",
    );
    assertEquals(n, 0);
    assertEquals((await user.get("/api/billing/state")).body.plan, "free");
  },
  billing,
);

dbTest("webhook: 400 on invalid signature or payload, never 500", async (app) => {
  const body = eventBody("customer.subscription.updated", {});
  const missing = await new Client(app).post("/api/billing/webhook", body);
  assertEquals([missing.status, missing.body.error.code], [400, "invalid_signature"]);
  const wrongSecret = await deliver(app, body, signature(body, nowSeconds(app), "whsec_x"));
  assertEquals([wrongSecret.status, wrongSecret.body.error.code], [400, "invalid_signature"]);
  const notJson = "not json";
  const bad = await deliver(app, notJson);
  assertEquals([bad.status, bad.body.error.code], [400, "bad_request"]);
  for (const r of [missing, wrongSecret, bad]) assert(!r.text.includes(WEBHOOK_SECRET));
}, billing);

// ---- signature known-answer cases (tests/fixtures/corpora/webhook-vectors.json "stripe") ----

Deno.test(
  { name: "stripe signature vectors" },
  async (t) => {
    const now = Date.UTC(2026, 0, 1);
    const ts = Math.floor(now / 1000);
    const body = eventBody("invoice.paid", { id: "in_1" });
    const v1 = hmacHex(WEBHOOK_SECRET, `${ts}.${body}`);
    const accepts = async (header: string, raw = body, secret = WEBHOOK_SECRET, at = now) =>
      (await verifyStripeEvent(raw, header, secret, at)).id;
    const rejects = async (header: string, raw = body, secret = WEBHOOK_SECRET, at = now) => {
      const e = await assertRejects(() => verifyStripeEvent(raw, header, secret, at));
      assert(e instanceof ApiError && e.status === 400, String(e));
    };

    await t.step("valid single v1", async () => {
      assertEquals(await accepts(`t=${ts},v1=${v1}`), "evt_1");
    });
    await t.step("two v1 (secret rotation), the second matching", async () => {
      const old = hmacHex("whsec_old", `${ts}.${body}`);
      assertEquals(await accepts(`t=${ts},v1=${old},v1=${v1}`), "evt_1");
    });
    await t.step("v0-only / unknown scheme rejected", async () => {
      await rejects(`t=${ts},v0=${v1}`);
      await rejects(`t=${ts},v2=${v1}`);
    });
    await t.step("missing t rejected", async () => {
      await rejects(`v1=${v1}`);
    });
    await t.step("300 s either way accepted, 301 s rejected", async () => {
      assertEquals(await accepts(`t=${ts},v1=${v1}`, body, WEBHOOK_SECRET, now + 300_000), "evt_1");
      assertEquals(await accepts(`t=${ts},v1=${v1}`, body, WEBHOOK_SECRET, now - 300_000), "evt_1");
      await rejects(`t=${ts},v1=${v1}`, body, WEBHOOK_SECRET, now + 301_000); // too old
      await rejects(`t=${ts},v1=${v1}`, body, WEBHOOK_SECRET, now - 301_000); // from the future
    });
    await t.step("body re-serialised rejected", async () => {
      await rejects(`t=${ts},v1=${v1}`, JSON.stringify(JSON.parse(body), null, 2));
    });
    await t.step("empty secret rejected", async () => {
      const empty = hmacHex("", `${ts}.${body}`);
      await rejects(`t=${ts},v1=${empty}`, body, "");
      await rejects(`t=${ts},v1=${empty}`);
    });
  },
);

dbTest("webhook over HTTP: the signature window follows the app clock", async (app) => {
  const body = eventBody("invoice.paid", { id: "in_1" });
  const t = nowSeconds(app);
  assertEquals((await deliver(app, body, signature(body, t - 299))).status, 200);
  assertEquals((await deliver(app, body, signature(body, t - 301))).status, 400);
  assertEquals((await deliver(app, body, signature(body, t + 301))).status, 400);
  app.clock.advance(600_000);
  assertEquals((await deliver(app, body, signature(body, t))).status, 400);
}, billing);

// ---- admin override ----

dbTest(
  "PATCH /api/admin/billing/{orgId}: 401, 403, 400, 404, then an override webhooks keep",
  async (app) => {
    const root = await signUp(app, ROOT);
    const { user, customerId } = await checkedOutUser(app);
    const path = `/api/admin/billing/${user.userId}`;
    assertEquals((await new Client(app).patch(path, { planCode: "pro" })).status, 401);
    assertEquals((await user.patch(path, { planCode: "pro" })).status, 403);
    const bad = await root.patch(path, { planCode: "enterprise" });
    assertEquals(bad.status, 400);
    assertEquals(bad.body.error.details.fields[0].path, "planCode");
    assertEquals((await root.patch(path, {})).status, 400);
    assertEquals(
      (await root.patch(`/api/admin/billing/no-such-user`, { planCode: "pro" })).status,
      404,
    );

    const r = await root.patch(path, { planCode: "pro" });
    assertEquals(r.status, 200);
    assertEquals([r.body.ok, r.body.billing.plan, r.body.billing.adminOverride], [
      true,
      "pro",
      true,
    ]);

    const canceled = eventBody(
      "customer.subscription.deleted",
      fakeSubscription("sub_o", customerId, "canceled", PERIOD_END),
    );
    assertEquals((await deliver(app, canceled)).status, 200);
    let state = await user.get("/api/billing/state");
    assertEquals([state.body.plan, state.body.status, state.body.adminOverride], [
      "pro",
      "canceled",
      true,
    ]);

    // An override to free also holds against an active subscription.
    await root.patch(path, { planCode: "free" });
    const active = eventBody(
      "customer.subscription.updated",
      fakeSubscription("sub_o", customerId, "active", PERIOD_END),
      "evt_2",
    );
    await deliver(app, active);
    state = await user.get("/api/billing/state");
    assertEquals([state.body.plan, state.body.status], ["free", "active"]);

    // Handing the plan back to the provider: the next event decides again.
    const back = await root.patch(path, { planCode: "free", adminOverride: false });
    assertEquals(back.body.billing.adminOverride, false);
    await deliver(app, active);
    assertEquals((await user.get("/api/billing/state")).body.plan, "pro");
  },
  billing,
);

// ---- sync ----

dbTest(
  "POST /api/billing/sync: 401, 403 for another account, self and master admin re-read Stripe",
  async (app) => {
    const root = await signUp(app, ROOT);
    const { user, customerId } = await checkedOutUser(app);
    const other = await signUp(app);
    assertEquals((await new Client(app).post("/api/billing/sync")).status, 401);
    const denied = await other.post(`/api/billing/sync?userId=${user.userId}`);
    assertEquals(denied.status, 403);

    const nothing = await user.post("/api/billing/sync");
    assertEquals(nothing.status, 200);
    assertEquals([nothing.body.ok, nothing.body.synced, nothing.body.billing.plan], [
      true,
      false,
      "free",
    ]);

    await deliver(
      app,
      eventBody(
        "customer.subscription.created",
        fakeSubscription("sub_s", customerId, "active", PERIOD_END),
      ),
    );
    stripe.setSubscription(fakeSubscription("sub_s", customerId, "unpaid", PERIOD_END + 86400));
    const mine = await user.post("/api/billing/sync");
    assertEquals(mine.status, 200);
    assertEquals(
      [mine.body.synced, mine.body.billing.plan, mine.body.billing.status],
      [true, "free", "unpaid"],
    );
    assertEquals(mine.body.billing.currentPeriodEnd, "2030-03-18T17:46:40.000Z");

    stripe.setSubscription(fakeSubscription("sub_s", customerId, "active", PERIOD_END));
    const byAdmin = await root.post(`/api/billing/sync?userId=${user.userId}`);
    assertEquals(byAdmin.status, 200);
    assertEquals([byAdmin.body.synced, byAdmin.body.billing.plan], [true, "pro"]);
    assertEquals((await root.post(`/api/billing/sync?userId=no-such-user`)).status, 404);
    assertEquals((await root.post(`/api/billing/sync?userId=`)).status, 400);
  },
  billing,
);

dbTest(
  "Stripe failures are a 502 naming no secret; oversized webhook bodies a 413",
  async (app) => {
    const { user, customerId } = await checkedOutUser(app);
    await deliver(
      app,
      eventBody(
        "customer.subscription.created",
        fakeSubscription("sub_gone", customerId, "active", PERIOD_END),
      ),
    );
    // The fake knows no sub_gone, so re-reading it fails like a deleted subscription would.
    const r = await user.post("/api/billing/sync");
    assertEquals(r.status, 502);
    assertEquals(r.body.error.code, "payment_provider_error");
    assert(!r.text.includes(SECRET_KEY));
    assertEquals((await user.get("/api/billing/state")).body.plan, "pro");
    const big = JSON.stringify({ pad: "x".repeat(300 * 1024) });
    assertEquals((await deliver(app, big)).status, 413);
  },
  billing,
);

// ---- plan limits on tenant creation ----

dbTest(
  "tenant creation: free allows 1 owned tenant (403 plan_limit), pro allows more",
  async (app) => {
    const { user, customerId } = await checkedOutUser(app);
    await createTenant(user);
    const second = await user.post("/api/tenants", {
      slug: "second-one",
      cms: "generic",
      originUrl: "https://assets.example.com",
    });
    assertEquals(second.status, 403);
    assertEquals(second.body.error.code, "plan_limit");
    await deliver(
      app,
      eventBody(
        "customer.subscription.created",
        fakeSubscription("sub_p", customerId, "active", PERIOD_END),
      ),
    );
    assertEquals(
      (await user.post("/api/tenants", {
        slug: "second-one",
        cms: "generic",
        originUrl: "https://assets.example.com",
      })).status,
      201,
    );
    await createTenant(user);
  },
  billing,
);

dbTest(
  "concurrent tenant creations by a free user: exactly one passes the limit",
  async (app) => {
    const user = await signUp(app);
    const tries = await Promise.all(
      Array.from(
        { length: 6 },
        (_, i) =>
          user.post("/api/tenants", {
            slug: `race-${i}-${user.userId.slice(0, 6)}`,
            cms: "generic",
            originUrl: "https://assets.example.com",
          }),
      ),
    );
    const statuses = tries.map((r) => r.status).sort();
    assertEquals(statuses, [201, 403, 403, 403, 403, 403]);
    for (const r of tries.filter((r) => r.status === 403)) {
      assertEquals(r.body.error.code, "plan_limit");
    }
  },
  billing,
);
