/**
 * The user menu's pages (/account/…), rendered in process: happy, empty, error (a refusal
 * shown in place after a no-JS post) and forbidden (anonymous).
 */
import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import { Client, createTenant, dbTest, signUp, tenantIdOf } from "./harness.ts";
import { seedUsageDays } from "./fakes/usage_rows.ts";
import { utcDay } from "../lib/usage/days.ts";

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const BILLING = { env: { STRIPE_SECRET_KEY: "sk_test_account", STRIPE_PRICE_PRO: "price_pro" } };

/** Posts a dashboard form as a browser without JavaScript would (through the form bridge). */
function postForm(c: Client, fields: Record<string, string>) {
  return c.post("/forms", new URLSearchParams(fields).toString(), FORM);
}

// ---- happy ----

dbTest(
  "profile and password pages: the user's details and the forms that change them",
  async (app) => {
    const user = await signUp(app);
    const profile = await user.get("/account/profile");
    assertEquals(profile.status, 200);
    assertStringIncludes(profile.text, user.email);
    assertStringIncludes(profile.text, 'value="/api/user/profile"');
    assertStringIncludes(profile.text, 'aria-current="page"');
    const pw = await user.get("/account/password");
    assertEquals(pw.status, 200);
    assertStringIncludes(pw.text, 'value="/api/user/change-password"');
    assertStringIncludes(pw.text, 'autocomplete="current-password"');
    assertStringIncludes(pw.text, 'autocomplete="new-password"');
    assertStringIncludes(pw.text, 'href="/forgot-password"');

    const saved = await postForm(user, {
      _api: "/api/user/profile",
      _method: "PATCH",
      _back: "/account/profile",
      "name:null": "Ada",
    });
    assertEquals(saved.status, 303);
    assertEquals(saved.headers.get("location"), "/account/profile");
    assertStringIncludes((await user.get("/account/profile")).text, 'value="Ada"');
  },
);

dbTest("tokens: create shows the token once, the list shows it, revoke asks first", async (app) => {
  const user = await signUp(app);
  const created = await postForm(user, {
    _api: "/api/user/tokens",
    _back: "/account/tokens",
    _reveal: "token",
    name: "ci-deploy",
  });
  assertEquals(created.status, 303);
  const once = await user.get("/account/tokens");
  // JSX drops the line break after "scopes:": the words ran together ("scopes:read").
  assertStringIncludes(once.text, "scopes: <strong>read</strong>");
  const token = once.text.match(/cly_pat_[A-Za-z0-9_-]+/)?.[0];
  assert(token, "the new token is shown after creating it");
  assertStringIncludes(once.text, "ci-deploy");
  assertStringIncludes(once.text, "data-copy=");
  const again = await user.get("/account/tokens");
  assert(!again.text.includes(token), "and never again");
  assertStringIncludes(again.text, "ci-deploy");
  const id = (await user.get("/api/user/tokens")).body.tokens[0].id;
  const revoke = again.text.match(
    new RegExp(
      `<form[^>]*data-confirm="[^"]*"[^>]*>(?:(?!</form>)[\\s\\S])*value="/api/user/tokens/${id}"`,
    ),
  );
  assert(revoke, "the revoke form asks for confirmation");
  const r = await postForm(user, {
    _api: `/api/user/tokens/${id}`,
    _method: "DELETE",
    _back: "/account/tokens",
    _confirmed: "1",
  });
  assertEquals(r.status, 303);
  assertStringIncludes((await user.get("/account/tokens")).text, 'data-empty="tokens"');
});

dbTest("billing page shows the plan card and the subscription", async (app) => {
  const user = await signUp(app);
  const r = await user.get("/account/billing");
  assertEquals(r.status, 200);
  assertStringIncludes(r.text, "<strong>free</strong> plan");
  assertStringIncludes(r.text, "/api/billing/checkout");
  assertStringIncludes(r.text, "no subscription");
  assert(!r.text.includes("sk_test_account"), "the secret key never reaches a page");
}, BILLING);

dbTest("billing page: a customer can ask the payment provider again", async (app) => {
  const user = await signUp(app);
  const before = await user.get("/account/billing");
  assert(
    !before.text.includes('aria-label="Refresh billing"'),
    "nothing to refresh before checkout",
  );
  await app.services.dbHandle.exec(
    `INSERT INTO billing_accounts (user_id, stripe_customer_id) VALUES ('${user.userId}', 'cus_acct')`,
  );
  const page = await user.get("/account/billing");
  assertStringIncludes(page.text, 'aria-label="Refresh billing"');
  assertStringIncludes(page.text, 'name="_api" value="/api/billing/sync"');
  const r = await postForm(user, {
    _api: "/api/billing/sync",
    _back: "/account/billing",
    _expect: "synced=true",
    _fail: "Nothing to refresh: no subscription at the payment provider yet",
  });
  assertEquals(r.status, 303);
  assertStringIncludes((await user.get("/account/billing")).text, "Nothing to refresh");
}, BILLING);

// ---- empty ----

dbTest("empty states: no tokens yet, billing not set up", async (app) => {
  const user = await signUp(app);
  assertStringIncludes((await user.get("/account/tokens")).text, 'data-empty="tokens"');
  const billing = await user.get("/account/billing");
  assertEquals(billing.status, 200);
  assertStringIncludes(billing.text, 'data-empty="billing"');
  assertEquals((await user.get("/account")).headers.get("location"), "/account/profile");
});

// ---- error ----

dbTest("a wrong current password is shown on the password page, not as JSON", async (app) => {
  const user = await signUp(app);
  const r = await postForm(user, {
    _api: "/api/user/change-password",
    _back: "/account/password",
    currentPassword: "not it",
    newPassword: "another long passphrase",
  });
  assertEquals(r.status, 303);
  assertEquals(r.headers.get("location"), "/account/password");
  const page = await user.get("/account/password");
  assertStringIncludes(page.text, "Current password is incorrect");
  assert(!page.text.includes('"error":'), "never raw JSON");
});

// ---- forbidden ----

dbTest("anonymous visitors are sent to log in and back to the account page", async (app) => {
  for (
    const path of ["/account/profile", "/account/password", "/account/tokens", "/account/billing"]
  ) {
    const r = await new Client(app).get(path);
    assertEquals(r.status, 302, path);
    assertEquals(r.headers.get("location"), `/login?next=${encodeURIComponent(path)}`);
  }
});

dbTest(
  "with quotas on, the billing page shows the month's traffic against the plan",
  async (app) => {
    const user = await signUp(app);
    const slug = await createTenant(user);
    await seedUsageDays(app, await tenantIdOf(app, slug), [
      { day: utcDay(app.clock.now()), requests: 1500, bytes: 3_000_000 },
    ]);
    const r = await user.get("/account/billing");
    assertEquals(r.status, 200);
    assertEquals((r.text.match(/<meter/g) ?? []).length, 2, "requests and bandwidth");
    assertStringIncludes(r.text, "1,500 of");
    assertStringIncludes(r.text, "3.00 MB of");
    assertStringIncludes(r.text, 'data-quota-level="0"', "the quota banner");
  },
  { env: { QUOTAS: "on" } },
);
