/**
 * Limits lead somewhere: refusals naming a plan link to the plan page
 * (API details and the form outcome), the billing page shows the plans without Stripe and
 * says payments are not enabled, and the verification banner says only what applies and
 * hides for the session. The Chromium side is tests/e2e/new_tenant_browser_test.ts.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "./assert.ts";
import { createTenant, dbTest, signUp } from "./harness.ts";
import { roleMatrix } from "./roles.ts";
import { outcomeFrom } from "../lib/dashboard/form_body.ts";

dbTest("a refusal naming a plan links to the plan page; billing shows the plans", async (app) => {
  const user = await signUp(app);
  assertEquals(
    (await user.post("/api/tenants", {
      slug: "one",
      cms: "generic",
      originUrl: "https://assets.example.com",
    })).status,
    201,
  );
  const two = await user.post("/api/tenants", {
    slug: "two",
    cms: "generic",
    originUrl: "https://assets.example.com",
  });
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
  assertStringIncludes(billing.text, 'data-payments="off"', "says payments are not enabled");
  for (const plan of ["free", "pro"]) assertStringIncludes(billing.text, `<td>${plan}`);
  assertStringIncludes(billing.text, "5.00 GB");
  // "Next steps" never suggests what the free plan forbids (custom domains)
  const overview = await user.get("/dashboard/one");
  assertEquals(overview.status, 200);
  assert(!overview.text.includes('data-next-step="domains"'), "free: no domain step");
  assertStringIncludes(overview.text, `href="/dashboard/one/members" data-next-step="members"`);
}, { env: { QUOTAS: "on" } });

dbTest(
  "the verification banner: no takeover warning without OAuth; hidden for the session",
  async (app) => {
    const user = await signUp(app);
    const page = await user.get("/dashboard");
    assertStringIncludes(page.text, "data-verify-email");
    assert(!page.text.includes("data-takeover"), "no OAuth (nor mail) on this server: no warning");
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
  assertStringIncludes(page.text, 'data-takeover="github"', "only the providers this server has");
}, {
  env: {
    OAUTH_GITHUB_CLIENT_ID: "id",
    OAUTH_GITHUB_CLIENT_SECRET: "secret",
  },
});

// ---- QA walk-through: wording, plan paths and roles on the pages ----

dbTest(
  "new tenant: picking the CMS keeps the typed slug; the empty state asks for the CMS first",
  async (app) => {
    const user = await signUp(app);
    const fresh = await user.get("/dashboard");
    assertStringIncludes(fresh.text, 'data-empty="tenants"', "the empty state leads to the form");
    // the picker carries the slug (islands/client.tsx fills it on change) and the reload shows it
    assertMatch(fresh.text, /<input type="hidden" name="draftSlug" value(="")? data-carry="slug"/);
    const picked = await user.get("/dashboard?cms=sanity&draftSlug=acme-shop");
    assertMatch(picked.text, /<input id="[^"]+" name="slug" required[^>]*value="acme-shop"/);
    assertMatch(picked.text, /data-provider-kind="sanity"/);
    const hostile = await user.get(`/dashboard?draftSlug=${encodeURIComponent('"><script>')}`);
    assert(!hostile.text.includes('"><script>'), "escaped");
  },
);

dbTest("the cache page says URLs and API/HTML, never urls/api/html", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const page = await owner.get(`/dashboard/${slug}/cache`);
  for (const text of ["Purge URLs", "Purged URLs", "Purge by URL", "Purge API", "Purge HTML"]) {
    assertStringIncludes(page.text, text);
  }
  assert(!/Purge(d| by)? (urls|api|html)\b/.test(page.text), "lower-case acronyms");
});

dbTest("domains: a free account sees the upgrade path, not an Add domain form", async (app) => {
  const root = await signUp(app, "root@example.com");
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const free = await owner.get(`/dashboard/${slug}/domains`);
  assert(!free.text.includes('aria-label="Add a domain"'), "no form the API refuses");
  assertMatch(free.text, /data-testid="domains-plan">[^]*?href="\/account\/billing#plans"/);
  assertEquals(
    (await root.patch(`/api/admin/billing/${owner.userId}`, { planCode: "pro" })).status,
    200,
  );
  const pro = await owner.get(`/dashboard/${slug}/domains`);
  assertStringIncludes(pro.text, 'aria-label="Add a domain"');
  assert(!pro.text.includes('data-testid="domains-plan"'), "pro: no upgrade path");
}, { env: { QUOTAS: "on", ADMIN_EMAILS: "root@example.com" } });

dbTest("domains: with quotas off every admin may add a domain", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const page = await owner.get(`/dashboard/${slug}/domains`);
  assertStringIncludes(page.text, 'aria-label="Add a domain"');
  assert(!page.text.includes('data-testid="domains-plan"'));
});

dbTest("AI page: caps and limits are edited by admins only, as the API allows", async (app) => {
  const owner = await signUp(app);
  const slug = await createTenant(owner);
  const { admin, editor, viewer } = await roleMatrix(app, owner, slug);
  for (const [who, c] of [["owner", owner], ["admin", admin]] as const) {
    const page = await c.get(`/dashboard/${slug}/ai`);
    assertStringIncludes(page.text, 'aria-label="AI limits"', who);
    assert(!page.text.includes('data-refusal="admin"'), who);
  }
  for (const [who, c] of [["editor", editor], ["viewer", viewer]] as const) {
    const page = await c.get(`/dashboard/${slug}/ai`);
    assertEquals(page.status, 200, who);
    assert(!page.text.includes('aria-label="AI limits"'), who);
    assertStringIncludes(page.text, 'data-refusal="admin"', `${who} is told admin is needed`);
  }
  // the API agrees: an editor's PUT is refused
  const put = await editor.put(`/api/tenants/${slug}/ai-transform/settings`, {
    maxFieldsPerResponse: 5,
  });
  assertEquals(put.status, 403, put.text);
});
