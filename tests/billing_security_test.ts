/**
 * Security cases of billing kept together: sessions on state, checkout, portal and sync
 * (401), syncing or overriding another account (403), the provider webhook's signature
 * (400 for anything unsigned, mis-signed or unparsable, never 500), and keys never echoed.
 */
import { assert, assertEquals } from "./assert.ts";
import { Client, dbTest, signUp, type TestApp } from "./harness.ts";
import { fakeSubscription, startFakeStripe } from "./fakes/stripe.ts";
import { echoes, expectRefusals, over } from "./refusals.ts";

const ROOT = "root-billing@example.com";
const SECRET_KEY = "sk_test_security_secret_key";
const WEBHOOK_SECRET = "whsec_security_webhook_secret";
const stripe = startFakeStripe();
const opts = {
  env: {
    ADMIN_EMAILS: ROOT,
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_PRO: "price_pro_1",
    STRIPE_API_BASE: stripe.url,
  },
};

/** Stripe's header for `body` at the app's clock, signed with WebCrypto. */
async function signed(app: TestApp, body: string): Promise<string> {
  const t = Math.floor(app.clock.now() / 1000);
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey(
    "raw",
    enc.encode(WEBHOOK_SECRET),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(`${t}.${body}`)));
  return `t=${t},v1=${Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

dbTest("billing: 401 anonymous; another account's sync or plan is 403", async (app) => {
  const anon = new Client(app);
  await expectRefusals(anon, [
    { method: "GET", path: "/api/billing/state", status: 401 },
    { method: "POST", path: "/api/billing/checkout", status: 401 },
    { method: "POST", path: "/api/billing/portal", status: 401 },
    { method: "POST", path: "/api/billing/sync", status: 401 },
  ]);
  const a = await signUp(app);
  const b = await signUp(app);
  await expectRefusals(b, [
    { method: "POST", path: `/api/billing/sync?userId=${a.userId}`, status: 403 },
    {
      method: "PATCH",
      path: `/api/admin/billing/${a.userId}`,
      body: { planCode: "pro" },
      status: 403,
    },
    {
      method: "PATCH",
      path: `/api/admin/billing/${b.userId}`,
      body: { planCode: "pro" },
      status: 403,
    },
  ]);
  assertEquals((await a.get("/api/billing/state")).body.planCode ?? "free", "free");
  const checkout = await a.post("/api/billing/checkout");
  assertEquals(checkout.status, 200, checkout.text);
  assert(!echoes(checkout.body, SECRET_KEY) && !echoes(checkout.body, WEBHOOK_SECRET));
  const state = await a.get("/api/billing/state");
  assert(!echoes(state.body, SECRET_KEY) && !echoes(state.body, WEBHOOK_SECRET), state.text);
}, opts);

dbTest("billing: bad input is 400 naming the field", async (app) => {
  const root = await signUp(app, ROOT);
  const user = await signUp(app);
  const patch = (body: unknown, field: string) => ({
    method: "PATCH",
    path: `/api/admin/billing/${user.userId}`,
    body,
    status: 400,
    field,
  });
  await expectRefusals(root, [
    patch({ planCode: "enterprise" }, "planCode"),
    patch({ planCode: "pro\u0000" }, "planCode"),
    patch({ planCode: 1 }, "planCode"),
    patch({ planCode: "pro", adminOverride: "yes" }, "adminOverride"),
    { method: "POST", path: "/api/billing/sync?userId=a%00b", status: 400, field: "userId" },
    { method: "POST", path: `/api/billing/sync?userId=${over(100)}`, status: 400, field: "userId" },
    {
      method: "PATCH",
      path: "/api/admin/billing/no-such-user",
      body: { planCode: "pro" },
      status: 404,
    },
  ]);
}, opts);

dbTest("billing webhook: unsigned, mis-signed or unparsable is 400, never 500", async (app) => {
  const user = await signUp(app);
  assertEquals((await user.post("/api/billing/checkout")).status, 200);
  const [{ customer }] = await app.services.dbHandle.query<{ customer: string }>(
    `SELECT stripe_customer_id AS customer FROM billing_accounts WHERE user_id = '${user.userId}'`,
  );
  const body = JSON.stringify({
    id: "evt_sec",
    object: "event",
    type: "customer.subscription.updated",
    data: { object: fakeSubscription("sub_x", customer, "active", 1_900_000_000) },
  });
  const sig = await signed(app, body);
  const hook = (payload: string, headers: Record<string, string>) => ({
    method: "POST",
    path: "/api/billing/webhook",
    body: payload,
    headers,
    status: 400,
  });
  const nulBody = body.replaceAll("sub_x", "sub\\u0000x");
  const anon = new Client(app);
  await expectRefusals(anon, [
    hook(body, {}),
    hook(body, { "stripe-signature": "" }),
    hook(body, { "stripe-signature": `t=1,v1=${over(5000)}` }),
    hook(body.replace("active", "canceled"), { "stripe-signature": sig }),
    hook(body + " ", { "stripe-signature": sig }),
    hook("not json", { "stripe-signature": await signed(app, "not json") }),
    hook(nulBody, { "stripe-signature": await signed(app, nulBody) }),
    hook("null", { "stripe-signature": await signed(app, "null") }),
    hook('{"type":"invoice.paid"}', {
      "stripe-signature": await signed(app, '{"type":"invoice.paid"}'),
    }),
  ]);
  const ok = await anon.post("/api/billing/webhook", body, { "stripe-signature": sig });
  assert(ok.status === 200, `a correctly signed event is accepted: ${ok.text}`);
  assert(!echoes(ok.body, WEBHOOK_SECRET));
}, opts);
