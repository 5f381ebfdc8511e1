/**
 * Limits lead somewhere (issue 24, item 7): refusals naming a plan link to the plan page
 * (API details and the form outcome), the billing page shows the plans without Stripe and
 * says payments are not enabled, and the verification banner says only what applies and
 * hides for the session. The Chromium side is tests/e2e/new_tenant_browser_test.ts.
 */
import { assert, assertEquals, assertStringIncludes } from "./assert.ts";
import { dbTest, signUp } from "./harness.ts";
import { outcomeFrom } from "../lib/dashboard/form_body.ts";

dbTest("a refusal naming a plan links to the plan page; billing shows the plans", async (app) => {
  const user = await signUp(app);
  assertEquals((await user.post("/api/tenants", { slug: "one", cms: "generic" })).status, 201);
  const two = await user.post("/api/tenants", { slug: "two", cms: "generic" });
  assertEquals(two.status, 403);
  assertEquals(two.body.error.code, "plan_limit");
  assertEquals(two.body.error.details, { planPage: "/account/billing#plans" });
  assertStringIncludes(two.body.error.message, "/account/billing#plans");
  const domain = await user.post("/api/tenants/one/domains", { hostname: "www.shop.example" });
  assertEquals([domain.status, domain.body.error.details?.planPage], [
    403,
    "/account/billing#plans",
  ]);
  // the dashboard's form outcome carries the link
  const outcome = outcomeFrom(403, two.body, {} as never, "http://localhost:8000");
  assertEquals(outcome.link, { href: "/account/billing#plans", label: "See the plans" });

  const billing = await user.get("/account/billing");
  assertEquals(billing.status, 200);
  assertStringIncludes(billing.text, 'id="plans"');
  assertStringIncludes(billing.text, "Payments are not enabled on this server");
  for (const plan of ["free", "pro"]) assertStringIncludes(billing.text, `<td>${plan}`);
  assertStringIncludes(billing.text, "5.00 GB");
  // "Next steps" never suggests what the free plan forbids (custom domains)
  const overview = await user.get("/dashboard/one");
  assertEquals(overview.status, 200);
  assert(!overview.text.includes("Add a custom domain"), "free: no domain step");
  assertStringIncludes(overview.text, "Invite a teammate");
}, { env: { QUOTAS: "on" } });

dbTest(
  "the verification banner: no takeover warning without OAuth; hidden for the session",
  async (app) => {
    const user = await signUp(app);
    const page = await user.get("/dashboard");
    assertStringIncludes(page.text, "data-verify-email");
    assert(!/GitHub|Google|takes the account over/.test(page.text), "no OAuth on this server");
    const hide = await user.request("POST", "/verify-email/dismiss", "next=%2Faccount%2Fprofile", {
      "content-type": "application/x-www-form-urlencoded",
    });
    assertEquals([hide.status, hide.headers.get("location")], [303, "/account/profile"]);
    assert(!/max-age|expires/i.test(hide.headers.get("set-cookie") ?? ""), "a session cookie");
    assert(!(await user.get("/dashboard")).text.includes("data-verify-email"), "hidden");
    const offsite = await user.request("POST", "/verify-email/dismiss", "next=%2F%2Fevil.example", {
      "content-type": "application/x-www-form-urlencoded",
    });
    assertEquals(offsite.headers.get("location"), "/dashboard", "never off-site");
  },
);

dbTest("with GitHub sign-in configured the banner names it", async (app) => {
  const user = await signUp(app);
  const page = await user.get("/dashboard");
  assertStringIncludes(page.text, "a GitHub sign-in as this address takes the account over");
  assert(!page.text.includes("Google"), "only the providers this server has");
}, {
  env: {
    OAUTH_GITHUB_CLIENT_ID: "id",
    OAUTH_GITHUB_CLIENT_SECRET: "secret",
  },
});
